import { sourceLabel, type SourceLimits } from '../../../catalog/index.js';
import { GatewayError, QueueFull, cancelledBy, linkSignals, type Clock, type SlotLimiter } from '../../core/index.js';
import type { SourceRegistry } from '../../registry/index.js';
import type { SourceLimiters } from '../sourceLimiters.js';
import type { ResolvedCall, Stage } from '../toolCall.js';

export interface LimitDeps {
  limiters: SourceLimiters;
  clock: Clock;
  /** Where the source's limits in force now are read (an admin may have edited them since the call was resolved). */
  registry: Pick<SourceRegistry, 'get'>;
}

/**
 * Takes a slot of the source's limiter for one attempt: a full queue is `queue_full`, a wait past
 * the queue timeout is `queue_timeout` (both retryable by a later call, never requeued), and a
 * cancellation while queued ends the wait. The limiter may be shared by replicas (Redis): then the
 * queue depth counts every replica's waiters, and an unreachable Redis is its retryable error. The
 * limits are those of the source's manifest in the registry now, not the call's: a call resolved
 * before an admin edited them (it waited for a human, or for a retry's backoff) would otherwise put
 * the old limits back in force for every caller. The time spent queued goes to the audit trail.
 */
export function withLimit(deps: LimitDeps): Stage {
  return (next) => async (call) => {
    const limits = deps.registry.get(call.tool.sourceId)?.manifest.limits ?? call.manifest.limits;
    const limiter = deps.limiters.limiterFor(call.tool.sourceId, limits);
    if (call.signal.aborted) throw cancelledBy(call.signal);
    // An in-process limiter with an idle slot grants it at once: no queue timer is armed.
    let release = limiter.tryAcquire?.();
    if (release) call.trail.queued(0);
    else release = await queueFor(deps, call, limiter, limits);
    try {
      return await next(call);
    } finally {
      release();
    }
  };
}

/** Waits in the limiter's queue, at most the queue timeout; the wait goes to the audit trail. */
async function queueFor(deps: LimitDeps, call: ResolvedCall, limiter: SlotLimiter, limits: SourceLimits): Promise<() => void> {
  const queuedAt = deps.clock.now();
  const timedOut = new AbortController();
  const waitOver = new AbortController();
  void deps.clock.sleep(limits.queueTimeoutMs, waitOver.signal).then(() => timedOut.abort(), () => {});
  const giveUp = linkSignals([call.signal, timedOut.signal]);
  try {
    return await limiter.acquire(giveUp.signal, { queueDepth: limits.queueDepth });
  } catch (error) {
    if (error instanceof QueueFull) {
      const waiting = error.queued === 0 ? `is running ${limits.concurrency} call${limits.concurrency === 1 ? '' : 's'} and queues none` : `has ${error.queued} calls queued already`;
      throw new GatewayError('queue_full', `${sourceLabel(call.manifest)} ${waiting}; try again shortly.`, { retryable: true });
    }
    if (call.signal.aborted) throw cancelledBy(call.signal);
    // The shared limits' engine (Redis) did not answer: its own retryable error says so.
    if (error instanceof GatewayError && !timedOut.signal.aborted) throw error;
    throw new GatewayError('queue_timeout', `${sourceLabel(call.manifest)} stayed busy for ${limits.queueTimeoutMs} ms; try again later.`, {
      retryable: true,
    });
  } finally {
    waitOver.abort(WAIT_OVER);
    giveUp.release();
    call.trail.queued(deps.clock.now() - queuedAt);
  }
}

/** Why the queue-timeout timer stops once the wait is over: one shared reason, so no error (and stack) per call. */
const WAIT_OVER = new GatewayError('cancelled', 'The queue wait ended.');
