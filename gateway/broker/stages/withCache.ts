import { LRUCache } from 'lru-cache';
import { canonicalArguments, resolvedTool, type Stage, type ToolOutcome } from '../toolCall.js';

export interface CacheOptions {
  /** Most entries kept (default 1000). */
  maxEntries?: number;
  /** Most bytes kept, counting each result's JSON size (default 50,000,000). */
  maxBytes?: number;
}

interface CachedOutcome {
  outcome: ToolOutcome;
  sizeBytes: number;
}

/**
 * Caches results of built-in idempotent tools for the manifest's TTL. It sits after the permission
 * stage, so a hit is still authorized, and inside the audit stage, so a hit still writes its own
 * Invocation row (`cacheHit: true`). Generic (custom) tools never cache.
 */
export function withCache(options: CacheOptions = {}): Stage {
  const maxEntries = options.maxEntries ?? 1000;
  const maxBytes = options.maxBytes ?? 50_000_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('withCache: maxEntries must be a positive integer');
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error('withCache: maxBytes must be a positive integer');
  const cache = new LRUCache<string, CachedOutcome>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.sizeBytes),
  });
  return (next) => async (call) => {
    const tool = resolvedTool(call);
    if (!tool.idempotent || tool.envelope !== 'scientific' || tool.cacheTtlMs <= 0) return next(call);
    const key = `${tool.sourceId}\n${tool.toolId}\n${canonicalArguments(call)}`;
    const hit = cache.get(key);
    if (hit) {
      call.audit.cacheHit = true;
      call.audit.sizeBytes = hit.sizeBytes;
      return hit.outcome;
    }
    const outcome = await next(call);
    const sizeBytes = call.audit.sizeBytes ?? 0;
    if (sizeBytes <= maxBytes) cache.set(key, { outcome, sizeBytes }, { ttl: tool.cacheTtlMs });
    return outcome;
  };
}
