import { describe, expect, it, vi } from 'vitest';
import { withCache, type Handler, type ResolvedCall } from '../../../gateway/broker/index.js';
import { withFields, type SharedCache } from '../../../gateway/core/index.js';
import { FakeClock, arxivResult, manifest, newResolvedCall, rawOf, searchTool } from '../../fixtures/brokerDoubles.js';
import { mapCache } from '../../fixtures/mapCache.js';

/** An upstream that answers each call with a fresh result of `sizeBytes`, counting calls. */
function upstream(sizeBytes = 100): Handler & { mock: { calls: unknown[] } } {
  return vi.fn(async () => ({ raw: rawOf(arxivResult()), result: arxivResult(), sizeBytes }));
}

const query = (q: string, overrides: Partial<ResolvedCall> = {}) =>
  newResolvedCall({ arguments: { query: q }, canonicalArguments: JSON.stringify({ query: q }), ...overrides });

describe('withCache', () => {
  it('answers a repeated idempotent call from the cache, reporting the hit and its size to the trail', async () => {
    const next = upstream(123);
    const stage = withCache({ clock: new FakeClock() })(next);
    const first = await stage(query('a'));
    const again = query('a');
    expect(await stage(again)).toBe(first);
    expect(next).toHaveBeenCalledOnce();
    expect(again.trail.facts()).toMatchObject({ cacheHit: true, sizeBytes: 123 });
  });

  it('refuses a hit over the size limit in force now as response_too_large without calling next; one at the limit is served', async () => {
    const next = upstream(500);
    const stage = withCache({ clock: new FakeClock() })(next);
    await stage(query('a'));
    const limitedTo = (maxResponseBytes: number) => withFields(manifest, { limits: withFields(manifest.limits, { maxResponseBytes }) });
    const refused = query('a', { manifest: limitedTo(499) });
    await expect(stage(refused)).rejects.toMatchObject({ code: 'response_too_large', details: { sizeBytes: 500, limitBytes: 499 } });
    expect(refused.trail.facts()).toMatchObject({ cacheHit: true, sizeBytes: 500 });
    expect((await stage(query('a', { manifest: limitedTo(500) }))).sizeBytes).toBe(500);
    expect(next).toHaveBeenCalledOnce();
  });

  it('never keeps a partial result (a part failed in passing): the next call asks again', async () => {
    const partial = arxivResult({ warnings: ['Could not list the files of X: HTTP 503'], partial: true });
    const next = vi.fn(async () => ({ raw: rawOf(partial), result: partial, sizeBytes: 100 }));
    const shared = mapCache();
    for (const stage of [withCache({ clock: new FakeClock() })(next), withCache({ clock: new FakeClock(), sharedCache: shared })(next)]) {
      await stage(query('a'));
      await stage(query('a'));
    }
    expect(next).toHaveBeenCalledTimes(4);
    expect(shared.entries.size).toBe(0);
  });

  it('expires an entry when the tool TTL has passed on the injected clock, not before', async () => {
    const clock = new FakeClock();
    const next = upstream();
    const stage = withCache({ clock })(next);
    await stage(query('a'));
    clock.advance(searchTool.cacheTtlMs - 1);
    await stage(query('a'));
    expect(next).toHaveBeenCalledOnce();
    clock.advance(2);
    await stage(query('a'));
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('evicts the least recently used entry past maxEntries, and weighs entries by their size', async () => {
    const next = upstream(40);
    const stage = withCache({ clock: new FakeClock(), cache: { maxEntries: 2, maxBytes: 100 } })(next);
    await stage(query('a'));
    await stage(query('b'));
    await stage(query('c')); // evicts a (entries), and 120 bytes > 100 would too
    await stage(query('a'));
    expect(next).toHaveBeenCalledTimes(4);
    await stage(query('c'));
    expect(next).toHaveBeenCalledTimes(4);
  });

  it('never caches generic (custom) tools or non-idempotent ones', async () => {
    const next = upstream();
    const stage = withCache({ clock: new FakeClock() })(next);
    const generic = { ...searchTool, envelope: 'generic' as const };
    await stage(query('a', { tool: generic }));
    await stage(query('a', { tool: generic }));
    await stage(query('b', { tool: { ...searchTool, idempotent: false } }));
    await stage(query('b', { tool: { ...searchTool, idempotent: false } }));
    expect(next).toHaveBeenCalledTimes(4);
  });

  it('with a shared cache, a result one replica stored is a hit for another, with the tool TTL', async () => {
    const shared = mapCache();
    const onA = withCache({ clock: new FakeClock(), sharedCache: shared })(upstream(77));
    const nextOnB = upstream();
    const onB = withCache({ clock: new FakeClock(), sharedCache: shared })(nextOnB);
    const first = await onA(query('a'));
    expect(shared.ttls).toEqual([searchTool.cacheTtlMs]);
    const onBCall = query('a');
    const hit = await onB(onBCall);
    expect(nextOnB).not.toHaveBeenCalled();
    expect(hit).toEqual({ raw: first.raw, result: first.result, sizeBytes: 77 });
    expect(onBCall.trail.facts()).toMatchObject({ cacheHit: true, sizeBytes: 77 });
  });

  it('with a shared cache, stores no entry over maxBytes, and a cache that cannot answer is a miss', async () => {
    const shared = mapCache();
    const next = upstream(2_000_000);
    await withCache({ clock: new FakeClock(), sharedCache: shared })(next)(query('big'));
    expect(shared.entries.size).toBe(0);
    const broken: SharedCache = { get: async () => 'not json {', set: async () => {} };
    const nextAfter = upstream();
    await withCache({ clock: new FakeClock(), sharedCache: broken })(nextAfter)(query('a'));
    expect(nextAfter).toHaveBeenCalledOnce();
  });

  it('refuses a bad option by name', () => {
    expect(() => withCache({ clock: new FakeClock(), cache: { maxEntries: 0 } })).toThrow(/cache\.maxEntries/);
  });
});
