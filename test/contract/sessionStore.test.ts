import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

function session(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: 'ses_1', projectId: 'default', transport: 'http', clientName: 'client', clientVersion: '1.0', approvalMode: 'ask_for_dangerous',
    permissionEpoch: 0, connectors: null, createdAt: '2026-12-01T00:00:00.000Z', endedAt: null, ...overrides,
  };
}

/** What every SessionStore must do. */
function sessionStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('reads back exactly what was created; an unknown id reads as undefined', async () => {
    const { sessions } = (await open()).storage;
    const stored = session({ transport: 'stdio', clientName: null, clientVersion: null, connectors: ['arxiv', 'pubmed'] });
    await sessions.create(stored);
    expect(await sessions.get('ses_1')).toEqual(stored);
    expect(await sessions.get('ses_missing')).toBeUndefined();
  });

  it('a second Session with the same id is rejected and the first is kept', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session());
    await expect(sessions.create(session({ clientName: 'other' }))).rejects.toThrow();
    expect((await sessions.get('ses_1'))?.clientName).toBe('client');
  });

  it('lists Sessions newest first', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session({ id: 'ses_old', createdAt: '2026-12-01T00:00:00.000Z' }));
    await sessions.create(session({ id: 'ses_new', createdAt: '2026-12-02T00:00:00.000Z' }));
    await sessions.create(session({ id: 'ses_mid', createdAt: '2026-12-01T12:00:00.000Z' }));
    expect((await sessions.list()).map((s) => s.id)).toEqual(['ses_new', 'ses_mid', 'ses_old']);
  });

  it('ends a Session once: a second end keeps the first time', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session());
    await sessions.end('ses_1', '2026-12-01T01:00:00.000Z');
    await sessions.end('ses_1', '2026-12-01T02:00:00.000Z');
    expect((await sessions.get('ses_1'))?.endedAt).toBe('2026-12-01T01:00:00.000Z');
  });

  it('ends every open Session at once, keeping the end time of those already ended', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session({ id: 'ses_a' }));
    await sessions.create(session({ id: 'ses_b' }));
    await sessions.create(session({ id: 'ses_done' }));
    await sessions.end('ses_done', '2026-12-01T01:00:00.000Z');
    expect(await sessions.endAllOpen('2026-12-01T02:00:00.000Z')).toBe(2);
    expect(Object.fromEntries((await sessions.list()).map((s) => [s.id, s.endedAt]))).toEqual({
      ses_a: '2026-12-01T02:00:00.000Z', ses_b: '2026-12-01T02:00:00.000Z', ses_done: '2026-12-01T01:00:00.000Z',
    });
    expect(await sessions.endAllOpen('2026-12-01T03:00:00.000Z')).toBe(0);
  });

  it('replaces the connector selection, and null inherits again', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session());
    await sessions.setConnectors('ses_1', ['arxiv']);
    expect((await sessions.get('ses_1'))?.connectors).toEqual(['arxiv']);
    await sessions.setConnectors('ses_1', []);
    expect((await sessions.get('ses_1'))?.connectors).toEqual([]);
    await sessions.setConnectors('ses_1', null);
    expect((await sessions.get('ses_1'))?.connectors).toBeNull();
  });

  it('an approval-mode change rotates the epoch and resolves with the updated Session; an unknown Session rejects', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session());
    expect(await sessions.setApprovalMode('ses_1', 'always_allow')).toEqual(session({ approvalMode: 'always_allow', permissionEpoch: 1 }));
    expect((await sessions.setApprovalMode('ses_1', 'always_allow')).permissionEpoch).toBe(1);
    await expect(sessions.setApprovalMode('ses_missing', 'always_allow')).rejects.toThrow(/ses_missing/);
  });

  it('a record read back is a copy: changing it changes nothing stored', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(session({ connectors: ['arxiv'] }));
    const read = (await sessions.get('ses_1'))!;
    read.connectors!.push('pubmed');
    read.clientName = 'changed';
    expect(await sessions.get('ses_1')).toMatchObject({ connectors: ['arxiv'], clientName: 'client' });
  });

  it('keeps every write across a restart', async () => {
    const opened = await open();
    await opened.storage.sessions.create(session());
    await opened.storage.sessions.setConnectors('ses_1', ['arxiv']);
    await opened.storage.sessions.setApprovalMode('ses_1', 'always_allow');
    await opened.storage.sessions.end('ses_1', '2026-12-01T01:00:00.000Z');
    const { sessions } = (await opened.reopen()).storage;
    expect(await sessions.get('ses_1')).toEqual(
      session({ connectors: ['arxiv'], approvalMode: 'always_allow', permissionEpoch: 1, endedAt: '2026-12-01T01:00:00.000Z' }),
    );
  });
}

describe.each(storageAdapters)('SessionStore contract: $name', sessionStoreContract);
