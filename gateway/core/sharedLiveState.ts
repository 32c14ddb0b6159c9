import type { EventRelay } from './eventHub.js';
import type { LimiterFactory } from './slotLimiter.js';

/**
 * A result cache every replica reads (Redis): text values under a key, each with its own TTL.
 * A cache that cannot answer reports a miss and stores nothing, so a call never fails or waits
 * because of it; the adapter bounds how long it waits.
 */
export interface SharedCache {
  /** The value stored under `key`, or undefined (absent, expired, or the cache did not answer). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` for `ttlMs` milliseconds; a failure is logged, not thrown. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/**
 * What the replicas of one deployment share live (`--redis`): the source limiters, the request
 * pacing of provider budgets (NCBI's 3 requests/s), the result cache and the events. The embedded
 * default has none of it: one process keeps all of this in memory.
 */
export interface SharedLiveState {
  /** Source limiters held for every replica (concurrency, spacing, queue depth). */
  limiters: LimiterFactory;
  /** Request pacers of provider budgets held for every replica. */
  pacers: LimiterFactory;
  cache: SharedCache;
  relay: EventRelay;
  /** This replica's name in relayed events (unique per process). */
  replica: string;
  /** Why the shared state cannot be used now (for /readyz), or undefined when it answers. */
  unavailableReason(): Promise<string | undefined>;
  close(): Promise<void>;
}
