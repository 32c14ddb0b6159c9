import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { sourceLabel } from '../../../catalog/index.js';
import { GatewayError, cancelledBy } from '../../core/index.js';
import type { Handler } from '../toolCall.js';

/**
 * The innermost handler: one attempt against the upstream server captured by `withResolve`. The
 * per-attempt timeout (manifest `limits.timeoutSeconds`) runs on the call's deadline and aborts the
 * call, so the upstream receives `notifications/cancelled`.
 */
export function callUpstream(): Handler {
  return async (call) => {
    const { tool, deadline } = call;
    const timeoutMs = call.manifest.limits.timeoutSeconds * 1000;
    // The attempt does not start, and its timer does not run, while an external wait (a human
    // deciding) holds the deadline.
    await deadline.whenReleased(call.signal).catch(() => Promise.reject(cancelledBy(call.signal)));
    // Aborts when the attempt's time is up or the call is cancelled.
    const attempt = deadline.timer(
      timeoutMs,
      () => new GatewayError('upstream_timeout', `${sourceLabel(call.manifest)} did not answer within ${timeoutMs / 1000} s.`, { retryable: true }),
      call.signal,
    );
    call.trail.attempted();
    try {
      // No timeout of the client's own: it could not pause for a hold; the deadline's timer decides.
      const raw = await call.client.callTool(tool.upstreamName, call.arguments, {
        signal: attempt.signal,
        ...(call.onProgress ? { onProgress: (p: Progress) => call.onProgress?.(p, 'upstream') } : {}),
      });
      return { raw };
    } finally {
      attempt.dispose();
    }
  };
}
