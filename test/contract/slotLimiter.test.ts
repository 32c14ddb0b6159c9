import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { ClockLimiter, QueueFull, silentLogger, systemClock, type SlotLimiter, type SlotLimiterOptions } from '../../gateway/core/index.js';
import { RedisLimiter, RedisSubscriber, connectRedis, limiterScripts } from '../../storage/redis/index.js';
import { startTestRedis, type TestRedis } from '../fixtures/redis.js';

/**
 * One suite for every SlotLimiter: the in-process ClockLimiter and the Redis limiter replicas
 * share. withLimit's queue_full / queue_timeout / cancellation rest on exactly these behaviours.
 */
let redis: TestRedis;
const opened: Array<{ client: Redis; subscriber: RedisSubscriber }> = [];
let keys = 0;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const { client, subscriber } of opened) {
    subscriber.close();
    client.disconnect();
  }
  await redis.stop();
});

/** One "replica": its own connections to the test Redis (`die` drops them, as a kill -9 would). */
async function replicaWithConnections(leaseMs?: number) {
  const client = await connectRedis(redis.url, silentLogger, 'test');
  const subscriber = await RedisSubscriber.open(client, silentLogger);
  opened.push({ client, subscriber });
  const deps = { scripts: limiterScripts(client), subscriber, clock: systemClock, log: silentLogger, ...(leaseMs ? { leaseMs } : {}) };
  const create = (key: string, options: SlotLimiterOptions) => new RedisLimiter(key, options, deps);
  const die = () => {
    subscriber.close();
    client.disconnect();
  };
  return { create, die };
}
const replica = async () => (await replicaWithConnections()).create;

const adapters: Array<{ name: string; make: () => Promise<(options: SlotLimiterOptions) => SlotLimiter> }> = [
  { name: 'ClockLimiter', make: async () => (options) => new ClockLimiter(options, systemClock) },
  {
    name: 'RedisLimiter',
    make: async () => {
      const create = await replica();
      const key = `contract-${++keys}`;
      return (options) => create(key, options);
    },
  },
];

const never = () => new AbortController().signal;

describe.each(adapters)('SlotLimiter contract: $name', ({ make }) => {
  it('grants up to its concurrency, then queues in arrival order until a release', async () => {
    const limiter = (await make())({ concurrency: 2, minTimeMs: 0 });
    const first = await limiter.acquire(never());
    const second = await limiter.acquire(never());
    const order: string[] = [];
    const third = limiter.acquire(never()).then((release) => (order.push('third'), release));
    const fourth = limiter.acquire(never()).then((release) => (order.push('fourth'), release));
    await expect.poll(() => limiter.queuedCount, { timeout: 60_000 }).toBe(2);
    expect(order).toEqual([]);
    first();
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
  });

  it('refuses with QueueFull when queueDepth callers wait and no slot is idle, and admits when one is', async () => {
    const limiter = (await make())({ concurrency: 1, minTimeMs: 0 });
    const release = await limiter.acquire(never(), { queueDepth: 0 });
    const waiting = limiter.acquire(never(), { queueDepth: 1 });
    await expect.poll(() => limiter.queuedCount, { timeout: 60_000 }).toBe(1);
    const refused = await limiter.acquire(never(), { queueDepth: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueFull);
    expect((refused as QueueFull).queued).toBe(1);
    release();
    (await waiting)();
  });

  it('drops a waiter that gives up at once: the next one gets the slot', async () => {
    const limiter = (await make())({ concurrency: 1, minTimeMs: 0 });
    const release = await limiter.acquire(never());
    const giveUp = new AbortController();
    const gaveUp = limiter.acquire(giveUp.signal).catch((error: unknown) => error);
    await expect.poll(() => limiter.queuedCount, { timeout: 60_000 }).toBe(1);
    const next = limiter.acquire(never());
    await expect.poll(() => limiter.queuedCount, { timeout: 60_000 }).toBe(2);
    giveUp.abort(new Error('gave up'));
    expect(((await gaveUp) as Error).message).toBe('gave up');
    expect(limiter.queuedCount).toBe(1);
    // The queue depth no longer counts the one that left.
    expect(await limiter.acquire(never(), { queueDepth: 1 }).catch((error: unknown) => error)).toBeInstanceOf(QueueFull);
    release();
    (await next)();
  });

  it('spaces grants at least minTimeMs apart', async () => {
    const limiter = (await make())({ concurrency: 5, minTimeMs: 300 });
    const grantedAt: number[] = [];
    await Promise.all([0, 1, 2].map(async () => {
      const release = await limiter.acquire(never());
      grantedAt.push(Date.now());
      release();
    }));
    grantedAt.sort((a, b) => a - b);
    // The spacing is kept where the grant is made (Redis times it on its own clock); this process sees
    // each grant when its reply is delivered, which a loaded machine can delay by tens of ms. Unspaced
    // grants arrive within a few ms of each other, so 200 of the 300 ms still tells them apart.
    expect(grantedAt[1]! - grantedAt[0]!).toBeGreaterThanOrEqual(200);
    expect(grantedAt[2]! - grantedAt[1]!).toBeGreaterThanOrEqual(200);
  });
});

describe('RedisLimiter across replicas', () => {
  it('holds one concurrency and one queue depth for every replica on the same key', async () => {
    const [a, b] = [await replica(), await replica()];
    const options = { concurrency: 1, minTimeMs: 0 };
    const onA = a('shared-1', options);
    const onB = b('shared-1', options);
    const release = await onA.acquire(never());
    let bGranted = false;
    const waitingOnB = onB.acquire(never(), { queueDepth: 1 }).then((r) => ((bGranted = true), r));
    await expect.poll(() => onB.queuedCount, { timeout: 60_000 }).toBe(1);
    // A's own queue is empty, but B's waiter fills the shared depth of 1.
    expect(await onA.acquire(never(), { queueDepth: 1 }).catch((error: unknown) => error)).toBeInstanceOf(QueueFull);
    expect(bGranted).toBe(false);
    release();
    (await waitingOnB)();
  });

  it("keeps a live replica's slot past its lease by renewing it, and frees a dead replica's slot when the lease runs out", async () => {
    const leaseMs = 1500;
    const [a, b] = [await replicaWithConnections(leaseMs), await replicaWithConnections(leaseMs)];
    const options = { concurrency: 1, minTimeMs: 0 };
    await a.create('lease-1', options).acquire(never());
    let bGranted = false;
    const waitingOnB = b.create('lease-1', options).acquire(never()).then((release) => ((bGranted = true), release));
    // Two whole leases: A renews, so B still waits.
    await new Promise((resolve) => setTimeout(resolve, 2 * leaseMs));
    expect(bGranted).toBe(false);
    a.die();
    (await waitingOnB)();
    expect(bGranted).toBe(true);
  });

  it('fails with a retryable storage_unavailable when Redis is gone, and works again once it is back', async () => {
    const create = await replica();
    const limiter = create('outage', { concurrency: 1, minTimeMs: 0 });
    await redis.kill();
    try {
      const failed = (await limiter.acquire(never()).catch((error: unknown) => error)) as { code?: string; retryable?: boolean; message: string };
      expect(failed.code).toBe('storage_unavailable');
      expect(failed.retryable).toBe(true);
      expect(failed.message).toMatch(/Redis did not answer/);
    } finally {
      await redis.start();
    }
    await expect.poll(async () => {
      const release = await limiter.acquire(never()).catch(() => undefined);
      release?.();
      return release !== undefined;
    }, { timeout: 60_000, interval: 250 }).toBe(true);
  });
});
