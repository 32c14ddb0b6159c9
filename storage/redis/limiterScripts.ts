/**
 * The Lua scripts of the Redis limiter. Each runs atomically in Redis on Redis's own clock (TIME),
 * so every replica sees one queue, one set of slot holders and one next-grant time per key:
 *
 *   KEYS[1] holders  sorted set: slot token → lease expiry (ms)
 *   KEYS[2] queue    sorted set: waiter token → arrival number (FIFO order)
 *   KEYS[3] leases   sorted set: waiter token → lease expiry (ms)
 *   KEYS[4] state    hash: `seq` (arrival counter), `next` (earliest next grant, ms)
 *
 * Holders and waiters hold leases their process renews; a replica that dies stops renewing, and
 * its slots and places are dropped when the lease runs out, so a crash never wedges a limiter.
 */

/** Reads Redis's clock and drops holders and waiters whose lease ran out. */
const PRELUDE = `
local holders, queue, leases, state = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
local dead = redis.call('ZRANGEBYSCORE', leases, '-inf', now)
for _, token in ipairs(dead) do redis.call('ZREM', queue, token) end
redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
local function keep(ttl)
  for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ttl) end
end
`;

/**
 * ENTER token leaseMs concurrency queueDepth ttlMs → {1, queued} (in the queue) or {0, queued}
 * (refused: queueDepth waiters already and no idle slot; queueDepth -1 never refuses).
 */
export const ENTER = `${PRELUDE}
local token, leaseMs, concurrency, depth, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local queued = redis.call('ZCARD', queue)
local running = redis.call('ZCARD', holders)
if depth >= 0 and queued >= depth and not (running < concurrency and queued == 0) then return {0, queued} end
local seq = redis.call('HINCRBY', state, 'seq', 1)
redis.call('ZADD', queue, seq, token)
redis.call('ZADD', leases, now + leaseMs, token)
keep(ttl)
return {1, queued + 1}
`;

/**
 * TAKE token leaseMs concurrency minTimeMs ttlMs → {1, 0} granted (now a holder), {0, waitMs}
 * not yet (waitMs > 0: the spacing ends then; 0: wait for a release), {-1, 0} the waiter's place
 * was dropped (its lease ran out): enter again.
 */
export const TAKE = `${PRELUDE}
local token, leaseMs, concurrency, minTime, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
if not redis.call('ZSCORE', queue, token) then return {-1, 0} end
redis.call('ZADD', leases, now + leaseMs, token)
keep(ttl)
local rank = redis.call('ZRANK', queue, token)
if rank >= concurrency - redis.call('ZCARD', holders) then return {0, 0} end
local nextAt = tonumber(redis.call('HGET', state, 'next') or '0')
if nextAt > now then return {0, nextAt - now} end
redis.call('ZREM', queue, token)
redis.call('ZREM', leases, token)
redis.call('ZADD', holders, now + leaseMs, token)
redis.call('HSET', state, 'next', now + minTime)
return {1, 0}
`;

/** LEAVE token channel: gives back a slot or a place in the queue and wakes the other waiters. */
export const LEAVE = `${PRELUDE}
redis.call('ZREM', holders, ARGV[1])
redis.call('ZREM', queue, ARGV[1])
redis.call('ZREM', leases, ARGV[1])
redis.call('PUBLISH', ARGV[2], 'changed')
return {1, 0}
`;

/** RENEW leaseMs token… : extends the leases of slots this process still holds. */
export const RENEW = `${PRELUDE}
for i = 2, #ARGV do redis.call('ZADD', holders, 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
return {1, 0}
`;
