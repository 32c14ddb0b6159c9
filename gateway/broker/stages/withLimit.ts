import { GatewayError, cancelledBy, type Clock } from '../../core/index.js';
import type { SourceLimits } from '../../../catalog/index.js';
import type { SourceLimiter, SourceLimiters } from '../sourceLimiters.js';
import { resolvedTool, type Stage, type ToolCall, type ToolOutcome } from '../toolCall.js';

export interface LimitOptions {
  limiters: SourceLimiters;
  limitsOf: (sourceId: string) => SourceLimits;
  clock: Clock;
}

/**
 * Takes a slot of the source's limiter for one attempt: a full queue is `queue_full`, a wait past
 * the queue timeout is `queue_timeout` (both retryable by a later call, never requeued), and a
 * cancellation while queued ends the wait. The time spent queued is recorded on the call.
 */
export function withLimit(options: LimitOptions): Stage {
  return (next) => async (call) => {
    const tool = resolvedTool(call);
    const limits = options.limitsOf(tool.sourceId);
    const limiter = options.limiters.limiterFor(tool.sourceId, limits);
    if (limiter.waiting >= limits.queueDepth && (limiter.running >= limits.concurrency || limiter.waiting > 0)) {
      throw new GatewayError('queue_full', `${tool.sourceId} has ${limiter.waiting} calls queued already; try again shortly.`, {
        retryable: true,
      });
    }
    const queuedAt = options.clock.now();
    const slotTaken = new AbortController();
    let state: 'queued' | 'started' | 'abandoned' = 'queued';
    limiter.waiting += 1;
    const job = limiter.bottleneck.schedule(async (): Promise<ToolOutcome | undefined> => {
      // Bottleneck cannot drop one queued job, so an abandoned call reaches the front and returns at once.
      if (state === 'abandoned') return undefined;
      state = 'started';
      slotTaken.abort();
      leaveQueue(limiter, call, queuedAt, options.clock);
      limiter.running += 1;
      try {
        return await next(call);
      } finally {
        limiter.running -= 1;
      }
    });
    await options.clock.sleep(limits.queueTimeoutMs, AbortSignal.any([call.signal, slotTaken.signal])).catch(() => {});
    if (state === 'queued') {
      state = 'abandoned';
      leaveQueue(limiter, call, queuedAt, options.clock);
      if (call.signal.aborted) throw cancelledBy(call.signal);
      throw new GatewayError('queue_timeout', `${tool.sourceId} stayed busy for ${limits.queueTimeoutMs} ms; try again later.`, {
        retryable: true,
      });
    }
    return (await job)!;
  };
}

function leaveQueue(limiter: SourceLimiter, call: ToolCall, queuedAt: number, clock: Clock): void {
  limiter.waiting -= 1;
  call.audit.queueWaitMs += clock.now() - queuedAt;
}
