import { describe, expect, it } from 'vitest';
import type { InvocationRecord } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

function invocation(overrides: Partial<InvocationRecord> = {}): InvocationRecord {
  return {
    id: 'inv_1', sessionId: 'ses_1', projectId: 'default', sourceId: 'arxiv', toolId: 'search', toolName: 'mcp__arxiv__search',
    origin: 'agent', status: 'ok', errorCode: null, retryable: null, attempts: 1, cacheHit: false, queueWaitMs: 0, durationMs: 12,
    sizeBytes: 345, casHash: 'a'.repeat(64), argumentsHash: 'b'.repeat(64), authorizationId: null,
    startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:00.012Z', ...overrides,
  };
}

/** What every InvocationStore must do. */
function invocationStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('reads back exactly what was recorded, nulls and flags included; an unknown id reads as undefined', async () => {
    const { invocations } = (await open()).storage;
    const ok = invocation({ cacheHit: true });
    const failed = invocation({
      id: 'inv_2', origin: 'inspector', status: 'error', errorCode: 'upstream_timeout', retryable: true, attempts: 3, sizeBytes: null,
      casHash: null, sourceId: null, toolId: null, authorizationId: 'pauth_1',
    });
    const denied = invocation({ id: 'inv_3', status: 'cancelled', errorCode: 'cancelled', retryable: false, attempts: 0, queueWaitMs: 20_000 });
    for (const row of [ok, failed, denied]) await invocations.record(row);
    expect(await invocations.get('inv_1')).toEqual(ok);
    expect(await invocations.get('inv_2')).toEqual(failed);
    expect(await invocations.get('inv_3')).toEqual(denied);
    expect(await invocations.get('inv_missing')).toBeUndefined();
  });

  it('lists one Session\'s Invocations newest first, at most `limit` (default 100)', async () => {
    const { invocations } = (await open()).storage;
    for (let i = 0; i < 102; i += 1) {
      const at = new Date(Date.parse('2026-12-01T00:00:00.000Z') + i * 1000).toISOString();
      await invocations.record(invocation({ id: `inv_${String(i).padStart(3, '0')}`, startedAt: at, endedAt: at }));
    }
    await invocations.record(invocation({ id: 'inv_other', sessionId: 'ses_other' }));
    const all = await invocations.listBySession('ses_1');
    expect(all).toHaveLength(100);
    expect(all.slice(0, 2).map((i) => i.id)).toEqual(['inv_101', 'inv_100']);
    expect((await invocations.listBySession('ses_1', { limit: 3 })).map((i) => i.id)).toEqual(['inv_101', 'inv_100', 'inv_099']);
    expect((await invocations.listBySession('ses_other')).map((i) => i.id)).toEqual(['inv_other']);
    expect(await invocations.listBySession('ses_none')).toEqual([]);
  });

  it('an audit row is never replaced: a second row with the same id is rejected', async () => {
    const { invocations } = (await open()).storage;
    await invocations.record(invocation());
    await expect(invocations.record(invocation({ status: 'error' }))).rejects.toThrow();
    expect((await invocations.get('inv_1'))?.status).toBe('ok');
  });

  it('keeps every row across a restart', async () => {
    const opened = await open();
    await opened.storage.invocations.record(invocation());
    const { invocations } = (await opened.reopen()).storage;
    expect(await invocations.get('inv_1')).toEqual(invocation());
  });
}

describe.each(storageAdapters)('InvocationStore contract: $name', invocationStoreContract);
