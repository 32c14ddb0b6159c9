// Imported on demand by the commands when --redis is given: the embedded default never loads ioredis.
export { openRedisLiveState, type OpenRedisOptions } from './openRedisLiveState.js';
export { RedisLimiter, limiterScripts } from './redisLimiter.js';
export { RedisSubscriber, connectRedis, redactRedisUrl } from './redisConnection.js';
export { createRedisCache } from './redisCache.js';
export { createRedisEventRelay, EVENTS_CHANNEL } from './redisEventRelay.js';
