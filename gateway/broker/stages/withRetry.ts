import { GatewayError, type Clock } from '../../core/index.js';
import { resolvedTool, type Stage } from '../toolCall.js';
import type { RetryPolicy } from '../../../catalog/index.js';

export interface RetryOptions {
  clock: Clock;
  /** Uniform random in [0, 1), for jitter. */
  random: () => number;
  policyOf: (sourceId: string) => RetryPolicy;
}

/** Failures worth another attempt of an idempotent call (429, 5xx, timeouts, broken connections). */
const RETRIED = new Set(['rate_limited', 'upstream_error', 'upstream_timeout', 'upstream_unavailable']);

/**
 * Retries idempotent tools with exponential backoff and equal jitter, honouring a provider's
 * Retry-After (capped at the policy's maxDelayMs). Each attempt goes back through the limiter for
 * its own slot; the sleep between attempts holds none. Generic tools get exactly one attempt.
 */
export function withRetry(options: RetryOptions): Stage {
  return (next) => async (call) => {
    const tool = resolvedTool(call);
    const policy = options.policyOf(tool.sourceId);
    const maxAttempts = tool.idempotent ? policy.attempts : 1;
    for (;;) {
      try {
        return await next(call);
      } catch (thrown) {
        const error = GatewayError.from(thrown);
        error.attempts = call.audit.attempts;
        if (!shouldRetry(error, call.audit.attempts, maxAttempts, call.signal)) throw error;
        await options.clock.sleep(delayMs(error, call.audit.attempts, policy, options.random), call.signal);
      }
    }
  };
}

function shouldRetry(error: GatewayError, attempts: number, maxAttempts: number, signal: AbortSignal): boolean {
  return attempts < maxAttempts && error.retryable && RETRIED.has(error.code) && !signal.aborted;
}

/** Backoff before the next attempt: Retry-After when the provider gave one, else half the ceiling plus jitter. */
export function delayMs(error: GatewayError, attempts: number, policy: RetryPolicy, random: () => number): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
