import { LRUCache } from 'lru-cache';
import type { Clock, SharedCache } from '../../core/index.js';
import { sharedOutcomes } from '../sharedOutcomes.js';
import { refuseOverLimit } from '../refuseOverLimit.js';
import type { Stage, ToolOutcome } from '../toolCall.js';

export interface CacheOptions {
  /** Most entries kept (default 1000). */
  maxEntries?: number;
  /**
   * Most bytes kept, counting each result's JSON size (default 50,000,000). With a shared cache,
   * the largest entry stored (default 1,000,000: one big value would stall Redis for every replica).
   */
  maxBytes?: number;
}

export interface CacheDeps {
  /** Entries expire on this clock (tests move it to see a TTL end). */
  clock: Clock;
  cache?: CacheOptions;
  /**
   * A cache every replica reads (Redis) instead of this process's LRU. Entries over
   * `cache.maxBytes` are not stored; the TTLs and Redis's maxmemory policy bound the rest.
   */
  sharedCache?: SharedCache;
}

interface OutcomeCache {
  get(key: string): ToolOutcome | undefined | Promise<ToolOutcome | undefined>;
  set(key: string, outcome: ToolOutcome, ttlMs: number): void | Promise<void>;
}

/**
 * Caches results of built-in idempotent tools for the manifest's TTL. It sits after the permission
 * stage, so a hit is still authorized, and inside the audit stage, so a hit still writes its own
 * Invocation row (`cacheHit: true`). Generic (custom) tools never cache, nor does a result marked
 * `partial` (a part of it failed in passing, and asking again may get it all). A hit larger than the
 * source's size limit now is refused as `response_too_large`, as a fresh answer would be.
 */
export function withCache(deps: CacheDeps): Stage {
  const maxEntries = deps.cache?.maxEntries ?? 1000;
  const maxBytes = deps.cache?.maxBytes ?? (deps.sharedCache ? 1_000_000 : 50_000_000);
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('withCache: cache.maxEntries must be a positive integer');
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error('withCache: cache.maxBytes must be a positive integer');
  const cache: OutcomeCache = deps.sharedCache ? sharedOutcomes(deps.sharedCache) : localCache(deps.clock, maxEntries, maxBytes);
  return (next) => async (call) => {
    const { tool } = call;
    if (!tool.idempotent || tool.envelope !== 'scientific' || tool.cacheTtlMs <= 0) return next(call);
    const key = `${tool.sourceId}\n${tool.toolId}\n${call.canonicalArguments}`;
    const hit = await cache.get(key);
    if (hit) {
      call.trail.cacheHit();
      call.trail.sized(hit.sizeBytes ?? 0);
      // The entry may predate a lower limit: a shared cache outlives a restart with lower
      // --source-limits, and replicas started with different limits read the same entries.
      refuseOverLimit(call, hit.sizeBytes ?? 0);
      return hit;
    }
    call.trail.cacheMissed();
    const outcome = await next(call);
    // A partial result (a part failed in passing) would keep that failure for the whole TTL.
    if (!outcome.result?.partial && (outcome.sizeBytes ?? 0) <= maxBytes) await cache.set(key, outcome, tool.cacheTtlMs);
    return outcome;
  };
}

/** This process's LRU, bounded by entries and by the results' JSON bytes, expiring on the injected clock. */
function localCache(clock: Clock, maxEntries: number, maxBytes: number): OutcomeCache {
  const lru = new LRUCache<string, ToolOutcome>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (outcome) => Math.max(1, outcome.sizeBytes ?? 0),
    perf: { now: () => clock.now() },
    // Read the clock at every check: lru-cache otherwise reuses a reading for 1 ms of real time.
    ttlResolution: 0,
  });
  return { get: (key) => lru.get(key), set: (key, outcome, ttlMs) => void lru.set(key, outcome, { ttl: ttlMs }) };
}
