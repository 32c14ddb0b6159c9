import { describe, expect, it } from 'vitest';
import { sha256Hex, type InvocationRecord, type InvocationStore } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

const INTENT_FIELDS = ['id', 'sessionId', 'projectId', 'toolName', 'origin', 'argumentsHash', 'startedAt'] as const;
const encoder = new TextEncoder();

function invocation(overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    id: 'inv_1', sessionId: 'ses_1', projectId: 'default', sourceId: 'arxiv', toolId: 'search', toolName: 'mcp__arxiv__search',
    origin: 'agent', status: 'ok', errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0, durationMs: 12,
    sizeBytes: 345, casHash: 'a'.repeat(64), argumentsHash: 'b'.repeat(64), authorizationId: null,
    startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:00.012Z', ...overrides,
  };
}

function intentOf(row: InvocationRecord) {
  return Object.fromEntries(INTENT_FIELDS.map((k) => [k, row[k]])) as Pick<InvocationRecord, (typeof INTENT_FIELDS)[number]>;
}

/** Both records of a call that ended as `row` says (blob hashes as given; the bytes are stored too). */
async function recordCall(store: InvocationStore, row: InvocationRecord): Promise<void> {
  await store.begin(intentOf(row), encoder.encode(`{"args":"${row.id}"}`));
  await store.complete(row, encoder.encode(`{"result":"${row.id}"}`));
}

/** What every InvocationStore must do. */
function invocationStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('reads back exactly what was recorded, nulls and flags included; an unknown id reads as undefined', async () => {
    const { invocations } = (await open()).storage;
    const ok = invocation({ cacheHit: true });
    const failed = invocation({
      id: 'inv_2', origin: 'inspector', status: 'error', errorCode: 'upstream_timeout', retryable: true, attempts: 3, sizeBytes: null,
      casHash: null, argumentsHash: null, sourceId: null, toolId: null, authorizationId: 'pauth_1',
    });
    const denied = invocation({ id: 'inv_3', status: 'cancelled', errorCode: 'cancelled', retryable: false, attempts: 0, queueWaitMs: 20_000 });
    for (const row of [ok, failed, denied]) await recordCall(invocations, row);
    expect(await invocations.get('inv_1')).toEqual(ok);
    expect(await invocations.get('inv_2')).toEqual(failed);
    expect(await invocations.get('inv_3')).toEqual(denied);
    expect(await invocations.get('inv_missing')).toBeUndefined();
  });

  it('keeps the arguments and result bytes where the CAS finds them by hash', async () => {
    const { invocations, cas } = (await open()).storage;
    const args = encoder.encode('{"query":"testing"}');
    const result = encoder.encode('{"records":[]}');
    const row = invocation({ argumentsHash: sha256Hex(args), casHash: sha256Hex(result) });
    await invocations.begin(intentOf(row), args);
    await invocations.complete(row, result);
    expect((await cas.get(sha256Hex(args)))?.toString()).toBe('{"query":"testing"}');
    expect((await cas.get(sha256Hex(result)))?.toString()).toBe('{"records":[]}');
  });

  it('a begun call is invisible until it completes; its completion is visible as soon as it is made', async () => {
    const { invocations } = (await open()).storage;
    await invocations.begin(intentOf(invocation()), encoder.encode('{}'));
    expect(await invocations.get('inv_1')).toBeUndefined();
    expect(await invocations.listBySession('ses_1')).toEqual([]);
    const durable = invocations.complete(invocation(), encoder.encode('{}'));
    expect(await invocations.get('inv_1')).toEqual(invocation());
    await durable;
  });

  it('a completion may be asked for before its intent is durable, and is kept after it', async () => {
    const opened = await open();
    const begun = opened.storage.invocations.begin(intentOf(invocation()), encoder.encode('{}'));
    const completed = opened.storage.invocations.complete(invocation(), encoder.encode('{}'));
    await Promise.all([begun, completed]);
    const { invocations } = (await opened.reopen()).storage;
    expect(await invocations.interruptUnfinished('2026-12-01T00:01:00.000Z')).toBe(0);
    expect(await invocations.get('inv_1')).toEqual(invocation());
  });

  it('lists one Session\'s Invocations newest first, at most `limit` (default 100), and pages on from a cursor', async () => {
    const { invocations } = (await open()).storage;
    for (let i = 0; i < 102; i += 1) {
      const at = new Date(Date.parse('2026-12-01T00:00:00.000Z') + i * 1000).toISOString();
      await recordCall(invocations, invocation({ id: `inv_${String(i).padStart(3, '0')}`, startedAt: at, endedAt: at }));
    }
    // Same start as inv_101: ties are ordered by id.
    await recordCall(invocations, invocation({ id: 'inv_101b', startedAt: '2026-12-01T00:01:41.000Z', endedAt: '2026-12-01T00:01:41.000Z' }));
    await recordCall(invocations, invocation({ id: 'inv_other', sessionId: 'ses_other' }));
    const all = await invocations.listBySession('ses_1');
    expect(all).toHaveLength(100);
    expect(all.slice(0, 3).map((i) => i.id)).toEqual(['inv_101', 'inv_101b', 'inv_100']);
    const first = await invocations.listBySession('ses_1', { limit: 2 });
    expect(first.map((i) => i.id)).toEqual(['inv_101', 'inv_101b']);
    const next = await invocations.listBySession('ses_1', { limit: 3, before: { startedAt: first[0]!.startedAt, id: first[0]!.id } });
    expect(next.map((i) => i.id)).toEqual(['inv_101b', 'inv_100', 'inv_099']);
    const last = await invocations.listBySession('ses_1', { before: { startedAt: all[99]!.startedAt, id: all[99]!.id } });
    expect(last.map((i) => i.id)).toEqual(['inv_002', 'inv_001', 'inv_000']);
    expect((await invocations.listBySession('ses_other')).map((i) => i.id)).toEqual(['inv_other']);
    expect(await invocations.listBySession('ses_none')).toEqual([]);
  });

  it('an audit row is never replaced: a second intent with the same id, or a second completion, is rejected', async () => {
    const { invocations } = (await open()).storage;
    await recordCall(invocations, invocation());
    const again = invocation({ status: 'error' });
    await expect(invocations.begin(intentOf(again), encoder.encode('{}'))).rejects.toThrow();
    await expect(invocations.complete(again, null)).rejects.toThrow();
    expect((await invocations.get('inv_1'))?.status).toBe('ok');
  });

  it('a completion stands alone when its intent was never stored (the store had refused it), and survives a restart', async () => {
    const opened = await open();
    const refused = invocation({ id: 'inv_refused', status: 'error', errorCode: 'storage_unavailable', retryable: true });
    await opened.storage.invocations.complete(refused, encoder.encode('{"error":{}}'));
    const { invocations } = (await opened.reopen()).storage;
    expect(await invocations.interruptUnfinished('2026-12-01T00:01:00.000Z')).toBe(0);
    expect(await invocations.get('inv_refused')).toEqual(refused);
  });

  it('keeps every row across a restart', async () => {
    const opened = await open();
    await recordCall(opened.storage.invocations, invocation());
    const { invocations } = (await opened.reopen()).storage;
    expect(await invocations.get('inv_1')).toEqual(invocation());
  });

  it('an intent left without a completion by a stop is marked interrupted at the next start, once', async () => {
    const opened = await open();
    await recordCall(opened.storage.invocations, invocation({ id: 'inv_done' }));
    await opened.storage.invocations.begin(intentOf(invocation({ id: 'inv_open' })), encoder.encode('{}'));
    const { invocations } = (await opened.reopen()).storage;
    expect(await invocations.interruptUnfinished('2026-12-01T00:00:05.000Z')).toBe(1);
    expect(await invocations.get('inv_open')).toEqual(
      invocation({
        id: 'inv_open', status: 'interrupted', errorCode: 'interrupted', sourceId: null, toolId: null, attempts: 0, durationMs: 5000, sizeBytes: null,
        casHash: null, endedAt: '2026-12-01T00:00:05.000Z',
      }),
    );
    expect((await invocations.get('inv_done'))?.status).toBe('ok');
    expect(await invocations.interruptUnfinished('2026-12-01T00:00:06.000Z')).toBe(0);
  });
}

describe.each(storageAdapters)('InvocationStore contract: $name', invocationStoreContract);
