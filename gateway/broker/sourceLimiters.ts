import type { SourceLimits } from '../../catalog/index.js';
import { ClockLimiter, type Clock, type LimiterFactory, type SlotLimiter } from '../core/index.js';

/** What the catalog status shows of a limiter. */
export interface LimiterState {
  key: string;
  running: number;
  queued: number;
}

/**
 * Limiters keyed by source id or by the manifest's shared limit group (the NCBI sources share one
 * budget), created on first use and shared by every Session of this gateway — and, with a
 * `create` that holds them in Redis, by every replica.
 */
export class SourceLimiters {
  private readonly limiters = new Map<string, SlotLimiter>();
  private readonly create: LimiterFactory;

  /** `create` makes each key's limiter (default: an in-process ClockLimiter on `clock`). */
  constructor(clock: Clock, create?: LimiterFactory) {
    this.create = create ?? ((_key, options) => new ClockLimiter(options, clock));
  }

  /**
   * The limiter for a source; the first source of a group sets the group's limits. A source alone
   * in its limiter whose limits changed (an admin edited a custom server) gets them from this call on.
   */
  limiterFor(sourceId: string, limits: SourceLimits): SlotLimiter {
    const key = limits.limitGroup ?? sourceId;
    const options = { concurrency: limits.concurrency, minTimeMs: limits.minTimeMs };
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = this.create(key, options);
      this.limiters.set(key, limiter);
    } else if (limits.limitGroup === undefined && !limiter.hasOptions(options)) {
      limiter.reconfigure(options);
    }
    return limiter;
  }

  /** Running and queued calls of this process in the limiter a source uses, if it has been used. */
  stateOf(sourceId: string, limitGroup?: string): LimiterState {
    const key = limitGroup ?? sourceId;
    const limiter = this.limiters.get(key);
    return { key, running: limiter?.runningCount ?? 0, queued: limiter?.queuedCount ?? 0 };
  }

  /** Running and queued calls of every limiter used so far (for the queue-depth gauge). */
  states(): LimiterState[] {
    return [...this.limiters].map(([key, limiter]) => ({ key, running: limiter.runningCount, queued: limiter.queuedCount }));
  }
}
