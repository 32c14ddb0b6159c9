import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/** Who reports progress: scigate itself (waiting for a human) or the upstream server doing the work. */
export type ProgressSource = 'gateway' | 'upstream';

/**
 * One call's progress as the client sees it, always increasing (MCP requires it): scigate's own
 * "waiting for the user" beats come first and stop once the upstream reports; the upstream's values
 * are shifted past the last beat when they would not exceed it (an upstream that starts at 0), with
 * `total` shifted alike, and a value that would not increase (an upstream breaking the rule, or a
 * retried attempt starting over) is dropped rather than sent.
 */
export function progressRelay(send: (progress: Progress) => void): (progress: Progress, from?: ProgressSource) => void {
  let last: number | undefined;
  let offset: number | undefined;
  return (progress, from = 'upstream') => {
    if (from === 'gateway' && offset !== undefined) return;
    if (from === 'upstream' && offset === undefined) offset = last !== undefined && progress.progress <= last ? last + 1 - progress.progress : 0;
    const shift = from === 'upstream' ? (offset ?? 0) : 0;
    const value = progress.progress + shift;
    if (last !== undefined && value <= last) return;
    last = value;
    send({ ...progress, progress: value, ...(progress.total !== undefined ? { total: progress.total + shift } : {}) });
  };
}
