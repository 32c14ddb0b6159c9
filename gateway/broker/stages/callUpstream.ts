import { GatewayError, type Clock } from '../../core/index.js';
import type { SourceRegistry } from '../../registry/index.js';
import { resolvedTool, type Handler } from '../toolCall.js';

export interface CallUpstreamOptions {
  registry: SourceRegistry;
  clock: Clock;
  /** Per-attempt timeout of a source's tools (manifest `limits.timeoutSeconds`). */
  timeoutMsOf: (sourceId: string) => number;
}

/**
 * The innermost handler: one attempt against the upstream server. The per-attempt deadline runs on
 * the injected clock and aborts the call, so the upstream receives `notifications/cancelled`.
 */
export function callUpstream(options: CallUpstreamOptions): Handler {
  return async (call) => {
    const tool = resolvedTool(call);
    const source = options.registry.get(tool.sourceId);
    if (!source) throw new GatewayError('tool_unavailable', `The source ${tool.sourceId} was removed during the call.`);
    const timeoutMs = options.timeoutMsOf(tool.sourceId);
    const attempt = new AbortController();
    const finished = new AbortController();
    void options.clock.sleep(timeoutMs, AbortSignal.any([finished.signal, call.signal])).then(
      () => attempt.abort(new GatewayError('upstream_timeout', `${tool.sourceId} did not answer within ${timeoutMs / 1000} s.`, { retryable: true })),
      () => {},
    );
    call.audit.attempts += 1;
    try {
      const raw = await source.client.callTool(tool.upstreamName, call.arguments, {
        signal: AbortSignal.any([call.signal, attempt.signal]),
        // The SDK's own timer is only a backstop; the clock-driven deadline above decides.
        timeoutMs: timeoutMs + 60_000,
        ...(call.onProgress ? { onProgress: call.onProgress } : {}),
      });
      return { raw };
    } finally {
      finished.abort();
    }
  };
}
