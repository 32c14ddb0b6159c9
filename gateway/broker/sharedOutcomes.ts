import type { SharedCache } from '../core/index.js';
import type { ToolOutcome } from './toolCall.js';

/** What a shared cache keeps of an outcome: what the upstream answered and its size, as JSON. */
interface StoredOutcome {
  raw: ToolOutcome['raw'];
  result?: ToolOutcome['result'];
  sizeBytes?: number;
}

/**
 * Outcomes in a cache every replica reads: stored as JSON, read back as an outcome; an entry that
 * is not an outcome (another version wrote it) is a miss.
 */
export function sharedOutcomes(cache: SharedCache) {
  return {
    async get(key: string): Promise<ToolOutcome | undefined> {
      const text = await cache.get(key);
      if (text === undefined) return undefined;
      try {
        const stored = JSON.parse(text) as StoredOutcome;
        return stored && typeof stored === 'object' && stored.raw && typeof stored.raw === 'object' ? stored : undefined;
      } catch {
        return undefined;
      }
    },
    set(key: string, outcome: ToolOutcome, ttlMs: number): Promise<void> {
      const stored: StoredOutcome = { raw: outcome.raw, ...(outcome.result ? { result: outcome.result } : {}), sizeBytes: outcome.sizeBytes ?? 0 };
      return cache.set(key, JSON.stringify(stored), ttlMs);
    },
  };
}
