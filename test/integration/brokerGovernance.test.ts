import { afterEach, describe, expect, it } from 'vitest';
import { createBrokerHarness, type BrokerHarness } from '../fixtures/brokerHarness.js';
import { sleeperRegistered } from '../fixtures/brokerDoubles.js';
import { flakyMcpSource, flakyProviderSource, type FlakyCounters, type FlakyStep } from '../fixtures/servers/flakySource.js';
import { startFlakyProvider } from '../fixtures/providers/flakyProvider.js';
import { waitUntil } from '../fixtures/cliProcess.js';
import { startReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { arxivSource } from '../../sources/arxiv/index.js';

interface Setup {
  h: BrokerHarness;
  counters: FlakyCounters;
  close(): Promise<void>;
}

/** The same suite runs against a flaky MCP server and a source server in front of a flaky HTTP provider. */
const targets: Array<[string, (script: FlakyStep[]) => Promise<Setup>]> = [
  [
    'a flaky MCP server',
    async (script) => {
      const counters = { calls: 0, cancelled: 0 };
      const h = await createBrokerHarness([flakyMcpSource(script, counters)]);
      return { h, counters, close: () => h.close() };
    },
  ],
  [
    'a loopback flaky provider',
    async (script) => {
      const counters = { calls: 0, cancelled: 0 };
      const provider = await startFlakyProvider(script, counters);
      const h = await createBrokerHarness([flakyProviderSource()], provider.baseUrl);
      return { h, counters, close: async () => (await h.close(), await provider.close()) };
    },
  ],
];

const TOOL = 'mcp__flaky__get';
let current: Setup | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe.each(targets)('broker governance against %s', (_name, setup) => {
  const start = async (script: FlakyStep[]) => (current = await setup(script));
  const rowOf = async (s: Setup, id: string) => (await s.h.invocations.get(id))!;

  it('passes a normal result through with one attempt', async () => {
    const s = await start([{ status: 200 }]);
    const out = await s.h.call(TOOL, { id: 'a1' });
    expect(out.result.records[0].id).toBe('flaky:a1');
    expect(await rowOf(s, out.invocationId)).toMatchObject({ status: 'ok', attempts: 1, cacheHit: false });
  });

  it('invalid input is rejected before the upstream, naming the field', async () => {
    const s = await start([]);
    const out = await s.h.call(TOOL, { id: 5 });
    expect(out.error?.toJSON()).toMatchObject({ code: 'invalid_input', retryable: false, attempts: 0 });
    expect(out.error?.message).toContain('"id"');
    expect(s.counters.calls).toBe(0);
  });

  it('503 then success: retried after backoff, attempts 2', async () => {
    const s = await start([{ status: 503 }, { status: 200 }]);
    const pending = s.h.call(TOOL, { id: 'b' });
    expect(await sleeperRegistered(s.h.clock, (ms) => ms === 750)).toBe(750);
    s.h.clock.advance(750);
    const out = await pending;
    expect(out.ok).toBe(true);
    expect((await rowOf(s, out.invocationId)).attempts).toBe(2);
    expect(s.counters.calls).toBe(2);
  });

  it('a retry that is sleeping holds no slot: another call runs meanwhile, and each attempt takes a slot again', async () => {
    const s = await start([{ status: 503 }, { status: 200 }, { status: 200 }]);
    const first = s.h.call(TOOL, { id: 'retrying' });
    await sleeperRegistered(s.h.clock, (ms) => ms === 750);
    // Concurrency is 1: this call could not run if the sleeping retry still held the slot.
    const second = await s.h.call(TOOL, { id: 'meanwhile' });
    expect(second.ok).toBe(true);
    s.h.clock.advance(750);
    const out = await first;
    expect(out.ok).toBe(true);
    expect((await rowOf(s, out.invocationId)).attempts).toBe(2);
    expect(s.counters.calls).toBe(3);
  });

  it('429 with Retry-After in seconds is honoured', async () => {
    const s = await start([{ status: 429, retryAfter: '7' }, { status: 200 }]);
    const pending = s.h.call(TOOL, { id: 'c' });
    await sleeperRegistered(s.h.clock, (ms) => ms === 7000);
    s.h.clock.advance(7000);
    expect((await pending).ok).toBe(true);
  });

  it('429 with Retry-After as an HTTP date is honoured', async () => {
    const s = await start([]);
    const date = new Date(s.h.clock.now() + 5000).toUTCString();
    s.counters.calls = 0;
    const script = [{ status: 429, retryAfter: date }, { status: 200 }] as FlakyStep[];
    await current!.close();
    const fresh = await start(script);
    const pending = fresh.h.call(TOOL, { id: 'd' });
    const waited = await sleeperRegistered(fresh.h.clock, (ms) => ms > 4000 && ms <= 5000);
    fresh.h.clock.advance(waited);
    expect((await pending).ok).toBe(true);
    expect(fresh.counters.calls).toBe(2);
  });

  it('a Retry-After longer than the policy maximum is not retried sooner: the caller hears the wait at once', async () => {
    const s = await start([{ status: 429, retryAfter: '3600' }, { status: 200 }]);
    const out = await s.h.call(TOOL, { id: 'e' });
    expect(out.error?.toJSON()).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 3_600_000, attempts: 1 });
    expect(s.counters.calls).toBe(1);
  });

  it('gives up after the manifest attempts with a structured, retryable error carrying attempts', async () => {
    const s = await start([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const pending = s.h.call(TOOL, { id: 'f' });
    await sleeperRegistered(s.h.clock, (ms) => ms === 750);
    s.h.clock.advance(750);
    await sleeperRegistered(s.h.clock, (ms) => ms === 1500);
    s.h.clock.advance(1500);
    const out = await pending;
    expect(out.error?.toJSON()).toMatchObject({ code: 'upstream_error', retryable: true, attempts: 3 });
    // The last attempt's message alone would read as the whole story of the call.
    expect(out.error?.message).toMatch(/\. Tried 3 times over 2 s\.$/);
    expect(await rowOf(s, out.invocationId)).toMatchObject({ status: 'error', errorCode: 'upstream_error', attempts: 3 });
    expect(s.counters.calls).toBe(3);
  });

  it('a 400 is never retried', async () => {
    const s = await start([{ status: 400 }, { status: 200 }]);
    const out = await s.h.call(TOOL, { id: 'g' });
    expect(out.error?.toJSON()).toMatchObject({ code: 'invalid_input', retryable: false, attempts: 1 });
    expect(s.counters.calls).toBe(1);
  });

  it('a timeout aborts the upstream call (it sees the cancellation) and is upstream_timeout', async () => {
    const s = await start([{ hang: true }]);
    s.h.registry.get('flaky')!.manifest.retry.attempts = 1;
    const pending = s.h.call(TOOL, { id: 'h' });
    await sleeperRegistered(s.h.clock, (ms) => ms === 60_000);
    // Let the call reach the upstream first, so the timeout cancels work that is really running.
    await waitUntil(() => s.counters.calls === 1);
    s.h.clock.advance(60_000);
    const out = await pending;
    expect(out.error?.toJSON()).toMatchObject({ code: 'upstream_timeout', retryable: true, attempts: 1 });
    expect(await waitUntil(() => s.counters.cancelled === 1)).toBe(true);
  });

  it('a response exactly at the size limit passes; one byte over is response_too_large', async () => {
    const s = await start([{ status: 200, bytes: 1000 }, { status: 200, bytes: 1000 }, { status: 200, bytes: 1000 }]);
    const first = await s.h.call(TOOL, { id: 'i' });
    const size = (await rowOf(s, first.invocationId)).sizeBytes!;
    expect(size).toBeGreaterThan(1000);
    s.h.registry.get('flaky')!.manifest.limits.maxResponseBytes = size;
    expect((await s.h.call(TOOL, { id: 'i' })).ok).toBe(true);
    s.h.registry.get('flaky')!.manifest.limits.maxResponseBytes = size - 1;
    const over = await s.h.call(TOOL, { id: 'i' });
    expect(over.error?.toJSON()).toMatchObject({ code: 'response_too_large', retryable: false });
    expect((await rowOf(s, over.invocationId)).sizeBytes).toBe(size);
  });

  it('a full queue is queue_full (retryable) at once', async () => {
    const s = await start([{ hang: true }, { hang: true }]);
    const running = new AbortController();
    const queued = new AbortController();
    const a = s.h.call(TOOL, { id: 'j1' }, { signal: running.signal });
    await waitUntil(() => s.counters.calls === 1);
    const b = s.h.call(TOOL, { id: 'j2' }, { signal: queued.signal });
    await waitUntil(() => s.h.broker.limiterState('flaky').queued === 1);
    const c = await s.h.call(TOOL, { id: 'j3' });
    expect(c.error?.toJSON()).toMatchObject({ code: 'queue_full', retryable: true, attempts: 0 });
    queued.abort();
    running.abort();
    await Promise.all([a, b]);
  });

  it('a queue wait past the queue timeout is queue_timeout, recorded with its wait, separate from the tool timeout', async () => {
    const s = await start([{ hang: true }]);
    const running = new AbortController();
    const a = s.h.call(TOOL, { id: 'k1' }, { signal: running.signal });
    await waitUntil(() => s.counters.calls === 1);
    const b = s.h.call(TOOL, { id: 'k2' });
    await sleeperRegistered(s.h.clock, (ms) => ms === 20_000);
    s.h.clock.advance(20_000);
    const out = await b;
    expect(out.error?.toJSON()).toMatchObject({ code: 'queue_timeout', retryable: true });
    expect((await rowOf(s, out.invocationId)).queueWaitMs).toBe(20_000);
    running.abort();
    expect((await a).error?.code).toBe('cancelled');
    expect(s.counters.calls).toBe(1);
  });

  it('cancellation while queued and while running ends both as cancelled, not as timeouts', async () => {
    const s = await start([{ hang: true }]);
    const running = new AbortController();
    const queued = new AbortController();
    const a = s.h.call(TOOL, { id: 'l1' }, { signal: running.signal });
    await waitUntil(() => s.counters.calls === 1);
    const b = s.h.call(TOOL, { id: 'l2' }, { signal: queued.signal });
    await waitUntil(() => s.h.broker.limiterState('flaky').queued === 1);
    queued.abort();
    const outB = await b;
    expect(outB.error?.code).toBe('cancelled');
    expect((await rowOf(s, outB.invocationId)).status).toBe('cancelled');
    running.abort();
    const outA = await a;
    expect(await rowOf(s, outA.invocationId)).toMatchObject({ status: 'cancelled', errorCode: 'cancelled' });
    expect(await waitUntil(() => s.counters.cancelled === 1)).toBe(true);
    expect(s.counters.calls).toBe(1);
    expect(s.h.broker.limiterState('flaky')).toMatchObject({ running: 0, queued: 0 });
  });
});

describe('rediscovery changes the input schema', () => {
  it('a call valid under the old schema is invalid_input after the schema changed', async () => {
    const counters = { calls: 0, cancelled: 0 };
    const source = flakyMcpSource([], counters);
    const h = await createBrokerHarness([source]);
    current = { h, counters, close: () => h.close() };
    expect((await h.call(TOOL, { id: 'abc' })).ok).toBe(true);
    source.schema.set('v2');
    await h.registry.discover('flaky');
    const out = await h.call(TOOL, { id: 'abc' });
    expect(out.error?.code).toBe('invalid_input');
    expect((await h.call(TOOL, { id: '123' })).ok).toBe(true);
    expect(counters.calls).toBe(2);
  });
});

describe('limit, empty and page boundaries (arXiv through the broker)', () => {
  it('accepts the bounds, rejects one past them before any request, and pages', async () => {
    const provider = await startReplayServer(arxivReplay);
    const h = await createBrokerHarness([arxivSource], `${provider.baseUrl}/api`);
    current = { h, counters: { calls: 0, cancelled: 0 }, close: async () => (await h.close(), await provider.close()) };
    h.registry.get('arxiv')!.manifest.limits.minTimeMs = 0;

    const atMax = await h.call('mcp__arxiv__search', { query: 'testing', maxResults: 100 });
    expect(atMax.ok).toBe(true);
    const sent = provider.requests.length;
    const overMax = await h.call('mcp__arxiv__search', { query: 'testing', maxResults: 101 });
    expect(overMax.error?.code).toBe('invalid_input');
    expect(overMax.error?.message).toContain('maxResults');
    const negative = await h.call('mcp__arxiv__search', { query: 'testing', start: -1 });
    expect(negative.error?.code).toBe('invalid_input');
    const tooManyIds = await h.call('mcp__arxiv__get', { ids: Array.from({ length: 51 }, (_, i) => `2104.${String(10000 + i)}`) });
    expect(tooManyIds.error?.message).toContain('ids');
    expect(provider.requests.length).toBe(sent);

    const empty = await h.call('mcp__arxiv__search', { query: 'nothing matches this' });
    expect(empty.result.records).toEqual([]);
    expect(empty.result.data.nextStart).toBeNull();
    const page1 = await h.call('mcp__arxiv__search', { query: 'testing' });
    const page2 = await h.call('mcp__arxiv__search', { query: 'testing', start: page1.result.data.nextStart });
    expect(page2.result.data.startIndex).toBe(10);
    expect(page2.result.records.map((r: any) => r.id)).not.toEqual(page1.result.records.map((r: any) => r.id));
  });
});
