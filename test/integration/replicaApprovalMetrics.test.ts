import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { EventHub, SecretScrubber, randomId, silentLogger, systemClock } from '../../gateway/core/index.js';
import { createGatewayMetrics, type PrometheusMetrics } from '../../gateway/metrics/index.js';
import { createPermissionGate, type PermissionGate } from '../../gateway/permissions/index.js';
import { EVENTS_CHANNEL, RedisSubscriber, connectRedis, createRedisEventRelay } from '../../storage/redis/index.js';
import { MemoryPermissions, MemorySessions, newSession, pendingRequests } from '../fixtures/permissionDoubles.js';
import { startTestRedis, type TestRedis } from '../fixtures/redis.js';

/**
 * Approval metrics of two replicas sharing one permission store (the memory store stands in for
 * PostgreSQL) and one Redis events relay: the action waits on B, the human decides on A.
 */
let redis: TestRedis;
let publisher: Redis;
const closers: Array<() => void> = [];

beforeAll(async () => {
  redis = await startTestRedis();
  publisher = await connectRedis(redis.url, silentLogger, 'probe');
});
afterAll(async () => {
  for (const close of closers) close();
  publisher?.disconnect();
  await redis?.stop();
});

interface ReplicaGate {
  gate: PermissionGate;
  metrics: PrometheusMetrics;
}

async function replicas(): Promise<{ a: ReplicaGate; b: ReplicaGate; store: MemoryPermissions }> {
  const sessions = new MemorySessions();
  await sessions.create(newSession());
  const store = new MemoryPermissions();
  const replica = async (name: string): Promise<ReplicaGate> => {
    const client = await connectRedis(redis.url, silentLogger, name);
    const subscriber = await RedisSubscriber.open(client, silentLogger);
    closers.push(() => (subscriber.close(), client.disconnect()));
    const events = new EventHub();
    events.connect(createRedisEventRelay(client, subscriber, silentLogger), name);
    const metrics = await createGatewayMetrics();
    metrics.watchApprovals(events);
    return { gate: createPermissionGate({ sessions, store, events, clock: systemClock, newId: randomId, log: silentLogger, secrets: new SecretScrubber() }), metrics };
  };
  const before = await subscribers();
  const [a, b] = [await replica(`a-${randomId('r')}`), await replica(`b-${randomId('r')}`)];
  await vi.waitFor(async () => expect(await subscribers()).toBe(before + 2), { timeout: 60_000 });
  return { a, b, store };
}

async function subscribers(): Promise<number> {
  const [, count] = (await publisher.pubsub('NUMSUB', EVENTS_CHANNEL)) as [string, number];
  return Number(count);
}

/** The value of one sample line (`name{labels} value`), or 0 when the text has none. */
async function sample(metrics: PrometheusMetrics, series: string): Promise<number> {
  const line = (await metrics.scrape()).text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('approval metrics across replicas', () => {
  it('a request decided on another replica stops counting as pending where it waited, and its decision time is counted once', async () => {
    const { a, b, store } = await replicas();
    const waiting = b.gate.authorize({
      sessionId: 'ses_perm', invocationId: 'inv_metrics', toolName: 'mcp__notes__write_note', action: { action: 'tool.call', resource: 'mcp__notes__write_note' },
      arguments: { text: 'hi' }, signal: new AbortController().signal,
    });
    const [request] = await pendingRequests(store, 1);
    expect(await sample(b.metrics, 'scigate_approvals_pending')).toBe(1);
    await a.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    expect((await waiting).allowed).toBe(true);
    await vi.waitFor(async () => expect(await sample(b.metrics, 'scigate_approvals_pending')).toBe(0), { timeout: 10_000 });
    expect(await sample(a.metrics, 'scigate_approvals_pending')).toBe(0);
    const decided = async (replica: ReplicaGate) => sample(replica.metrics, 'scigate_approval_decision_seconds_count{status="allowed"}');
    expect((await decided(a)) + (await decided(b))).toBe(1);
  });
});
