import { GatewayError, QueueFull, cancelledBy, linkSignals, type Clock } from '../../core/index.js';
import type { SourceLimiters } from '../sourceLimiters.js';
import type { Stage } from '../toolCall.js';

export interface LimitDeps {
  limiters: SourceLimiters;
  clock: Clock;
}

/**
 * Takes a slot of the source's limiter for one attempt: a full queue is `queue_full`, a wait past
 * the queue timeout is `queue_timeout` (both retryable by a later call, never requeued), and a
 * cancellation while queued ends the wait. The limiter may be shared by replicas (Redis): then the
 * queue depth counts every replica's waiters, and an unreachable Redis is its retryable error. The limits are the manifest's; the time spent queued
 * goes to the audit trail.
 */
export function withLimit(deps: LimitDeps): Stage {
  return (next) => async (call) => {
    const { tool, manifest: { limits } } = call;
    const limiter = deps.limiters.limiterFor(tool.sourceId, limits);
    const queuedAt = deps.clock.now();
    const timedOut = new AbortController();
    const waitOver = new AbortController();
    void deps.clock.sleep(limits.queueTimeoutMs, waitOver.signal).then(() => timedOut.abort(), () => {});
    const giveUp = linkSignals([call.signal, timedOut.signal]);
    let release: () => void;
    try {
      release = await limiter.acquire(giveUp.signal, { queueDepth: limits.queueDepth });
    } catch (error) {
      if (error instanceof QueueFull) {
        throw new GatewayError('queue_full', `${tool.sourceId} has ${error.queued} calls queued already; try again shortly.`, { retryable: true });
      }
      call.trail.queued(deps.clock.now() - queuedAt);
      if (call.signal.aborted) throw cancelledBy(call.signal);
      // The shared limits' engine (Redis) did not answer: its own retryable error says so.
      if (error instanceof GatewayError && !timedOut.signal.aborted) throw error;
      throw new GatewayError('queue_timeout', `${tool.sourceId} stayed busy for ${limits.queueTimeoutMs} ms; try again later.`, {
        retryable: true,
      });
    } finally {
      waitOver.abort();
      giveUp.release();
    }
    call.trail.queued(deps.clock.now() - queuedAt);
    try {
      return await next(call);
    } finally {
      release();
    }
  };
}
