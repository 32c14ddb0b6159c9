import { afterEach, describe, expect, it } from 'vitest';
import { withFields } from '../../gateway/core/index.js';
import { createBrokerHarness, type BrokerHarness, type BrokerHarnessOptions } from '../fixtures/brokerHarness.js';
import { mapCache } from '../fixtures/mapCache.js';
import { flakyManifest, flakyMcpSource, type FlakyCounters } from '../fixtures/servers/flakySource.js';

const TOOL = 'mcp__flaky__get';
/** The flaky source with a cacheable `get`, like the built-in sources' searches. */
const cachedManifest = withFields(flakyManifest, { tools: flakyManifest.tools.map((tool) => withFields(tool, { cacheTtlMs: 60_000 })) });

const started: BrokerHarness[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.close()));
});

/** A gateway (a replica, or the same one after a restart) over its own flaky upstream, which answers every call. */
async function startGateway(counters: FlakyCounters, options: BrokerHarnessOptions): Promise<BrokerHarness> {
  const source = withFields(flakyMcpSource([], counters), { manifest: cachedManifest });
  const h = await createBrokerHarness([source], undefined, options);
  started.push(h);
  return h;
}

describe('a cached result and the size limit in force now', () => {
  it('a shared-cache hit over the limit a gateway now runs with is refused as a fresh answer is, and audited as a refused hit', async () => {
    const counters = { calls: 0, cancelled: 0 };
    const sharedCache = mapCache();
    const before = await startGateway(counters, { sharedCache });
    const first = await before.call(TOOL, { id: 'big' });
    expect(first.ok).toBe(true);
    const sizeBytes = (await before.invocations.get(first.invocationId))!.sizeBytes!;
    expect(sharedCache.entries.size).toBe(1);

    // Restarted with --source-limits '{"flaky":{"maxResponseBytes":…}}'; the shared cache (Redis) kept the entry.
    const lowered = { flaky: { maxResponseBytes: sizeBytes - 1 } };
    const after = await startGateway(counters, { sharedCache, limitOverrides: lowered });
    const hit = await after.call(TOOL, { id: 'big' });
    // What a fresh answer of the same size gets under the same limit (a gateway without the cache).
    const fresh = await (await startGateway(counters, { limitOverrides: lowered })).call(TOOL, { id: 'big' });
    expect(fresh.error?.toJSON()).toMatchObject({ code: 'response_too_large', attempts: 1 });
    expect(hit.error?.toJSON()).toEqual(withFields(fresh.error!.toJSON(), { attempts: 0 }));
    expect(await after.invocations.get(hit.invocationId)).toMatchObject({
      status: 'error', errorCode: 'response_too_large', cacheHit: true, attempts: 0, sizeBytes,
    });
    expect(counters.calls).toBe(2);

    // A limit the entry fits in exactly still answers from the cache.
    const atLimit = await startGateway(counters, { sharedCache, limitOverrides: { flaky: { maxResponseBytes: sizeBytes } } });
    expect((await atLimit.call(TOOL, { id: 'big' })).ok).toBe(true);
    expect(counters.calls).toBe(2);
  });
});
