import { hostname } from 'node:os';
import { randomHex, type Clock, type Logger, type SharedLiveState, type SlotLimiterOptions } from '../../gateway/core/index.js';
import { createRedisCache } from './redisCache.js';
import { connectRedis, RedisSubscriber, REDIS_COMMAND_TIMEOUT_MS } from './redisConnection.js';
import { createRedisEventRelay } from './redisEventRelay.js';
import { RedisLimiter, limiterScripts } from './redisLimiter.js';

/**
 * Grants are timed on Redis's clock, but a request leaves from a replica a few milliseconds later,
 * and that delay differs between replicas and requests. A provider counts arrivals: 10 % more
 * spacing keeps "3 per second" true at the provider, not just at Redis.
 */
const PACING_MARGIN = 0.1;

export interface OpenRedisOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  log: Logger;
  clock: Clock;
}

/**
 * What replicas share live, in Redis: source limiters and request pacers (Lua scripts on one
 * queue per key), the result cache and the events relay. Fails with a clear error when Redis does
 * not answer at start.
 */
export async function openRedisLiveState(options: OpenRedisOptions): Promise<SharedLiveState> {
  const replica = `${hostname()}:${process.pid}:${randomHex(4)}`;
  const client = await connectRedis(options.url, options.log, `scigate:${replica}`);
  const subscriber = await RedisSubscriber.open(client, options.log).catch((error: unknown) => {
    client.disconnect();
    throw error;
  });
  const deps = { scripts: limiterScripts(client), subscriber, clock: options.clock, log: options.log };
  const paced = (o: SlotLimiterOptions): SlotLimiterOptions => ({ ...o, minTimeMs: Math.ceil(o.minTimeMs * (1 + PACING_MARGIN)) });
  return {
    replica,
    limiters: (key, limits) => new RedisLimiter(`limit:${key}`, limits, deps),
    pacers: (group, limits) => new RedisLimiter(`pace:${group}`, paced(limits), deps),
    cache: createRedisCache(client, options.log),
    relay: createRedisEventRelay(client, subscriber, options.log),
    async unavailableReason() {
      try {
        await client.ping();
        return undefined;
      } catch (error) {
        return `Redis does not answer (${error instanceof Error ? error.message : String(error)}; waited at most ${REDIS_COMMAND_TIMEOUT_MS} ms)`;
      }
    },
    async close() {
      subscriber.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
