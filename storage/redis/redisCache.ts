import type { Redis } from 'ioredis';
import { sha256Hex, type Logger, type SharedCache } from '../../gateway/core/index.js';

/**
 * The result cache in Redis, read by every replica: one string per entry with its TTL (PX). Keys
 * are hashed (a call's canonical arguments can be long). Redis failing is a miss and a skipped
 * store, logged once per outage: a cache must never fail or stall a call.
 */
export function createRedisCache(client: Redis, log: Logger): SharedCache {
  let failing = false;
  const failed = (error: unknown) => {
    if (!failing) log.warn({ err: error }, 'the Redis result cache does not answer; calls go to the sources meanwhile');
    failing = true;
  };
  const keyOf = (key: string) => `scigate:cache:${sha256Hex(Buffer.from(key, 'utf8'))}`;
  return {
    async get(key) {
      try {
        const value = await client.get(keyOf(key));
        failing = false;
        return value ?? undefined;
      } catch (error) {
        failed(error);
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      try {
        await client.set(keyOf(key), value, 'PX', Math.max(1, Math.round(ttlMs)));
      } catch (error) {
        failed(error);
      }
    },
  };
}
