import { GatewayError, type Clock } from '../../core/index.js';
import type { RetryPolicy } from '../../../catalog/index.js';
import type { Stage } from '../toolCall.js';

export interface RetryDeps {
  clock: Clock;
  /** Uniform random in [0, 1), for jitter. */
  random: () => number;
}

/** Failures worth another attempt of an idempotent call (429, 5xx, timeouts, broken connections). */
const RETRIED = new Set(['rate_limited', 'upstream_error', 'upstream_timeout', 'upstream_unavailable']);

/**
 * Retries idempotent tools with exponential backoff and equal jitter, honouring a provider's
 * Retry-After: a wait longer than the policy's maxDelayMs is not retried (an attempt sooner than
 * the provider asked would be refused again), and the caller hears the wait. Each attempt goes back
 * through the limiter for its own slot; the sleep between attempts holds none. Generic tools get
 * exactly one attempt. The policy is the manifest's `retry`.
 */
export function withRetry(deps: RetryDeps): Stage {
  return (next) => async (call) => {
    const policy = call.manifest.retry;
    const maxAttempts = call.tool.idempotent ? policy.attempts : 1;
    const startedAt = deps.clock.now();
    for (let attempts = 1; ; attempts++) {
      try {
        return await next(call);
      } catch (thrown) {
        const error = GatewayError.from(thrown);
        if (!shouldRetry(error, attempts, maxAttempts, policy, call.signal)) throw attempts > 1 ? gaveUp(error, attempts, deps.clock.now() - startedAt) : error;
        await deps.clock.sleep(delayMs(error, attempts, policy, deps.random), call.signal);
      }
    }
  };
}

function shouldRetry(error: GatewayError, attempts: number, maxAttempts: number, policy: RetryPolicy, signal: AbortSignal): boolean {
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxDelayMs) return false;
  return attempts < maxAttempts && error.retryable && RETRIED.has(error.code) && !signal.aborted;
}

/** The last attempt's error, saying how many attempts it ends and how long they took (a message of one attempt's limit alone read as the whole wait). */
function gaveUp(error: GatewayError, attempts: number, elapsedMs: number): GatewayError {
  error.message = `${error.message.replace(/\.?$/, '.')} Tried ${attempts} times over ${Math.round(elapsedMs / 1000)} s.`;
  return error;
}

/** Backoff before the next attempt: Retry-After when the provider gave one, else half the ceiling plus jitter. */
export function delayMs(error: GatewayError, attempts: number, policy: RetryPolicy, random: () => number): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
