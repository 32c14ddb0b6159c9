import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { sourceLabel } from '../../../catalog/index.js';
import { GatewayError, cancelledBy, linkSignals } from '../../core/index.js';
import type { Handler } from '../toolCall.js';

/** Longest timer Node accepts (~24.8 days); the SDK's own timer must never beat the deadline's. */
const SDK_BACKSTOP_MS = 2_147_483_647;

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
    const attempt = deadline.timer(
      timeoutMs,
      () => new GatewayError('upstream_timeout', `${sourceLabel(call.manifest)} did not answer within ${timeoutMs / 1000} s.`, { retryable: true }),
    );
    call.trail.attempted();
    const cancel = linkSignals([call.signal, attempt.signal]);
    try {
      const raw = await call.client.callTool(tool.upstreamName, call.arguments, {
        signal: cancel.signal,
        // The SDK's own timer cannot pause for a hold, so it only backstops; the deadline's timer decides.
        timeoutMs: SDK_BACKSTOP_MS,
        ...(call.onProgress ? { onProgress: (p: Progress) => call.onProgress?.(p, 'upstream') } : {}),
      });
      return { raw };
    } finally {
      cancel.release();
      attempt.dispose();
    }
  };
}
