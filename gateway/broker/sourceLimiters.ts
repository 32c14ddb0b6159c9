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
        bottleneck: withPromptYields(new Bottleneck({ maxConcurrent: limits.concurrency, minTime: limits.minTimeMs })),
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

/**
 * Bottleneck's in-memory store yields to the event loop with `setTimeout(0)` several times per job
 * (it mimics its Redis store), which costs about 3.5 ms per call on Node. `setImmediate` still
 * yields to the loop, without waiting for the timer phase; waits with a real delay keep their timer.
 */
function withPromptYields(limiter: Bottleneck): Bottleneck {
  const store = (limiter as unknown as { _store?: { yieldLoop?: (t?: number) => Promise<void> } })._store;
  if (store && typeof store.yieldLoop === 'function') {
    store.yieldLoop = (t = 0) => new Promise((resolve) => (t > 0 ? setTimeout(resolve, t) : setImmediate(resolve)));
  }
  return limiter;
}
