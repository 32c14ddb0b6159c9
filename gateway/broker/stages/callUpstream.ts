import { GatewayError, cancelledBy, linkSignals, type Clock } from '../../core/index.js';
import type { SourceRegistry } from '../../registry/index.js';
import { deadlineOf, resolvedTool, type Handler } from '../toolCall.js';

/** Longest timer Node accepts (~24.8 days); the SDK's own timer must never beat the deadline's. */
const SDK_BACKSTOP_MS = 2_147_483_647;

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
    // The attempt runs on the call's deadline: it does not start, and its timer does not run, while
    // an external wait (a human deciding) holds the deadline.
    const deadline = deadlineOf(call, options.clock);
    await deadline.whenReleased(call.signal).catch(() => Promise.reject(cancelledBy(call.signal)));
    const attempt = deadline.timer(
      timeoutMs,
      () => new GatewayError('upstream_timeout', `${tool.sourceId} did not answer within ${timeoutMs / 1000} s.`, { retryable: true }),
    );
    call.audit.attempts += 1;
    const cancel = linkSignals([call.signal, attempt.signal]);
    try {
      const raw = await source.client.callTool(tool.upstreamName, call.arguments, {
        signal: cancel.signal,
        // The SDK's own timer cannot pause for a hold, so it only backstops; the deadline's timer decides.
        timeoutMs: SDK_BACKSTOP_MS,
        ...(call.onProgress ? { onProgress: call.onProgress } : {}),
      });
      return { raw };
    } finally {
      cancel.release();
      attempt.dispose();
    }
  };
}
