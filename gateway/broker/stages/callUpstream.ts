import type { SourceRegistry } from '../../registry/index.js';
import { resolvedTool, type Handler } from '../toolCall.js';

export interface CallUpstreamOptions {
  registry: SourceRegistry;
  /** Per-attempt timeout of a source's tools (manifest `limits.timeoutSeconds`). */
  timeoutMsOf: (sourceId: string) => number;
}

/** The innermost handler: one attempt against the upstream server, with the per-attempt timeout. */
export function callUpstream(options: CallUpstreamOptions): Handler {
  return async (call) => {
    const tool = resolvedTool(call);
    const source = options.registry.get(tool.sourceId);
    if (!source) throw new Error(`source ${tool.sourceId} vanished between resolve and call`);
    call.audit.attempts += 1;
    const raw = await source.client.callTool(tool.upstreamName, call.arguments, {
      signal: call.signal,
      timeoutMs: options.timeoutMsOf(tool.sourceId),
      ...(call.onProgress ? { onProgress: call.onProgress } : {}),
    });
    return { raw };
  };
}
