import Bottleneck from 'bottleneck';
import type { SourceLimits } from '../../catalog/index.js';

/** What the catalog status shows of a limiter. */
export interface LimiterState {
  key: string;
  running: number;
  queued: number;
}

/** One source's (or limit group's) limiter: bottleneck for concurrency and spacing, plus a waiting count. */
export interface SourceLimiter {
  key: string;
  limits: SourceLimits;
  bottleneck: Bottleneck;
  /** Calls waiting for a slot that have not given up (the queue depth that counts). */
  waiting: number;
  running: number;
}

/**
 * Limiters keyed by source id or by the manifest's shared limit group (the NCBI sources share one
 * budget), created on first use and shared by every Session of this gateway.
 */
export class SourceLimiters {
  private readonly limiters = new Map<string, SourceLimiter>();

  /** The limiter for a source; the first source of a group sets the group's limits. */
  limiterFor(sourceId: string, limits: SourceLimits): SourceLimiter {
    const key = limits.limitGroup ?? sourceId;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = {
        key,
        limits,
        bottleneck: new Bottleneck({ maxConcurrent: limits.concurrency, minTime: limits.minTimeMs }),
        waiting: 0,
        running: 0,
      };
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  /** Running and queued calls of the limiter a source uses, if it has been used. */
  stateOf(sourceId: string, limitGroup?: string): LimiterState {
    const key = limitGroup ?? sourceId;
    const limiter = this.limiters.get(key);
    return { key, running: limiter?.running ?? 0, queued: limiter?.waiting ?? 0 };
  }

  /** Drops limiters (catalog reload with new limits); running calls finish on the old ones. */
  reset(sourceId?: string): void {
    if (sourceId === undefined) this.limiters.clear();
    else this.limiters.delete(sourceId);
  }
}
