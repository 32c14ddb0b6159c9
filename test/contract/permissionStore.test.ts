import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../storage/index.js';
import { silentLogger, type PermissionGrantRecord, type PermissionRequestRecord } from '../../gateway/core/index.js';
import { newSession } from '../fixtures/permissionDoubles.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

function request(overrides: Partial<PermissionRequestRecord> = {}): PermissionRequestRecord {
  return {
    id: 'preq_1', sessionId: 'ses_perm', projectId: 'default', invocationId: 'inv_1', toolName: 'mcp__notes__write_note',
    action: 'tool.call', resource: 'mcp__notes__write_note', argumentsPreview: '{"text":"x"}', epoch: 0, status: 'pending',
    resolution: null, resolvedVia: null, grantId: null, authorizationId: null, createdAt: '2026-12-01T00:00:00.000Z',
    expiresAt: '2026-12-01T00:15:00.000Z', resolvedAt: null, ...overrides,
  };
}

const resolved = { status: 'allowed', resolution: 'allow_once', resolvedVia: 'admin', grantId: null, authorizationId: 'pauth_1', resolvedAt: '2026-12-01T00:01:00.000Z' } as const;
const denied = { ...resolved, status: 'denied', resolution: 'deny', authorizationId: 'pauth_2' } as const;

const grant: PermissionGrantRecord = {
  id: 'grt_1', sessionId: 'ses_perm', action: 'tool.call', resource: 'mcp__notes__write_note', requestId: 'preq_1', epoch: 0,
  createdAt: '2026-12-01T00:00:00.000Z', revokedAt: null,
};

/** What every PermissionStore must do (and the SessionStore's approval-mode epoch it relies on). */
function permissionStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('a pending request is resolved once; the second resolver loses', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addRequest(request());
    expect(await permissions.listRequests('ses_perm', { status: 'pending' })).toHaveLength(1);
    expect(await permissions.resolveRequest('preq_1', resolved)).toBe(true);
    expect(await permissions.resolveRequest('preq_1', denied)).toBe(false);
    expect(await permissions.getRequest('preq_1')).toEqual(request({ ...resolved }));
    expect(await permissions.listRequests('ses_perm', { status: 'pending' })).toEqual([]);
  });

  it('of two decisions racing for one request exactly one wins, and the stored request is the winner\'s', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addRequest(request());
    const [allow, deny] = await Promise.all([permissions.resolveRequest('preq_1', resolved), permissions.resolveRequest('preq_1', denied)]);
    expect([allow, deny].filter(Boolean)).toHaveLength(1);
    expect((await permissions.getRequest('preq_1'))?.status).toBe(allow ? 'allowed' : 'denied');
  });

  it('resolving an unknown request changes nothing and loses', async () => {
    const { permissions } = (await open()).storage;
    expect(await permissions.resolveRequest('preq_missing', resolved)).toBe(false);
    expect(await permissions.getRequest('preq_missing')).toBeUndefined();
  });

  it('lists a Session\'s requests in creation order, filtered by status', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addRequest(request({ id: 'preq_b', createdAt: '2026-12-01T00:00:02.000Z' }));
    await permissions.addRequest(request({ id: 'preq_a', createdAt: '2026-12-01T00:00:01.000Z' }));
    await permissions.addRequest(request({ id: 'preq_other', sessionId: 'ses_other' }));
    await permissions.resolveRequest('preq_b', resolved);
    expect((await permissions.listRequests('ses_perm')).map((r) => r.id)).toEqual(['preq_a', 'preq_b']);
    expect((await permissions.listRequests('ses_perm', { status: 'allowed' })).map((r) => r.id)).toEqual(['preq_b']);
  });

  it('Grants match exactly one action and resource until revoked', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addGrant(grant);
    expect(await permissions.getGrant('grt_1')).toEqual(grant);
    expect(await permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toEqual(grant);
    expect(await permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__delete_note')).toBeUndefined();
    expect(await permissions.findGrant('ses_other', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    expect(await permissions.revokeGrant('grt_1', '2026-12-01T00:02:00.000Z')).toBe(true);
    expect(await permissions.revokeGrant('grt_1', '2026-12-01T00:03:00.000Z')).toBe(false);
    expect(await permissions.revokeGrant('grt_missing', '2026-12-01T00:03:00.000Z')).toBe(false);
    expect(await permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    expect(await permissions.listGrants('ses_perm')).toEqual([{ ...grant, revokedAt: '2026-12-01T00:02:00.000Z' }]);
  });

  it('of two revocations racing for one Grant exactly one reports it', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addGrant(grant);
    const results = await Promise.all([
      permissions.revokeGrant('grt_1', '2026-12-01T00:02:00.000Z'),
      permissions.revokeGrant('grt_1', '2026-12-01T00:03:00.000Z'),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('authorizations are appended and listed per Session in order', async () => {
    const { permissions } = (await open()).storage;
    const base = { sessionId: 'ses_perm', invocationId: 'inv_1', requestId: null, grantId: null, action: 'tool.call', resource: 'r', via: 'mode', epoch: 1, createdAt: '2026-12-01T00:00:00.000Z' } as const;
    await permissions.addAuthorization({ ...base, id: 'pauth_1', basis: 'always_allow', allowed: true });
    await permissions.addAuthorization({ ...base, id: 'pauth_2', basis: 'deny', allowed: false, via: 'admin' });
    expect((await permissions.listAuthorizations('ses_perm')).map((a) => [a.id, a.allowed, a.epoch, a.via])).toEqual([
      ['pauth_1', true, 1, 'mode'], ['pauth_2', false, 1, 'admin'],
    ]);
    expect(await permissions.listAuthorizations('ses_other')).toEqual([]);
  });

  it('an authorization without a request (always_allow, Grant hit) and a decided one are both durable and listed in creation order', async () => {
    const opened = await open();
    const base = { sessionId: 'ses_perm', invocationId: 'inv_1', grantId: null, action: 'tool.call', resource: 'r', epoch: 1, allowed: true } as const;
    await opened.storage.permissions.addAuthorization({ ...base, id: 'pauth_b', requestId: null, basis: 'grant', via: 'grant', grantId: 'grt_1', createdAt: '2026-12-01T00:00:02.000Z' });
    await opened.storage.permissions.addAuthorization({ ...base, id: 'pauth_a', requestId: 'preq_1', basis: 'allow_once', via: 'admin', createdAt: '2026-12-01T00:00:01.000Z' });
    await opened.storage.permissions.addAuthorization({ ...base, id: 'pauth_c', requestId: null, basis: 'always_allow', via: 'mode', createdAt: '2026-12-01T00:00:03.000Z' });
    await opened.storage.permissions.addAuthorization({ ...base, id: 'pauth_x', sessionId: 'ses_other', requestId: null, basis: 'always_allow', via: 'mode', createdAt: '2026-12-01T00:00:00.000Z' });
    const { permissions } = (await opened.reopen()).storage;
    expect((await permissions.listAuthorizations('ses_perm')).map((a) => [a.id, a.basis, a.requestId, a.grantId])).toEqual([
      ['pauth_a', 'allow_once', 'preq_1', null], ['pauth_b', 'grant', null, 'grt_1'], ['pauth_c', 'always_allow', null, null],
    ]);
    expect((await permissions.listAuthorizations('ses_other')).map((a) => a.id)).toEqual(['pauth_x']);
  });

  it('a second row with the same id is rejected and the first is kept', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addRequest(request());
    await expect(permissions.addRequest(request({ toolName: 'other' }))).rejects.toThrow();
    expect((await permissions.getRequest('preq_1'))?.toolName).toBe('mcp__notes__write_note');
  });

  it('orphanPending marks only pending requests, and they stay orphaned across a restart', async () => {
    const opened = await open();
    await opened.storage.permissions.addRequest(request());
    await opened.storage.permissions.addRequest(request({ id: 'preq_2' }));
    await opened.storage.permissions.resolveRequest('preq_2', resolved);
    const { permissions } = (await opened.reopen()).storage;
    expect(await permissions.orphanPending('2026-12-01T01:00:00.000Z')).toBe(1);
    expect(await permissions.getRequest('preq_1')).toMatchObject({ status: 'orphaned', resolvedVia: 'startup', resolvedAt: '2026-12-01T01:00:00.000Z' });
    expect(await permissions.getRequest('preq_2')).toMatchObject({ status: 'allowed' });
    expect(await permissions.orphanPending('2026-12-01T01:00:00.000Z')).toBe(0);
  });

  it('a record read back is a copy: changing it changes nothing stored', async () => {
    const { permissions } = (await open()).storage;
    await permissions.addRequest(request());
    const read = (await permissions.getRequest('preq_1'))!;
    read.status = 'denied';
    expect((await permissions.getRequest('preq_1'))?.status).toBe('pending');
  });

  it('changing the approval mode rotates the epoch; setting the same mode does not', async () => {
    const { sessions } = (await open()).storage;
    await sessions.create(newSession());
    expect((await sessions.setApprovalMode('ses_perm', 'always_allow')).permissionEpoch).toBe(1);
    expect((await sessions.setApprovalMode('ses_perm', 'always_allow')).permissionEpoch).toBe(1);
    expect(await sessions.setApprovalMode('ses_perm', 'ask_for_dangerous')).toMatchObject({ approvalMode: 'ask_for_dangerous', permissionEpoch: 2 });
  });
}

describe.each(storageAdapters)('PermissionStore contract: $name', permissionStoreContract);

describe('the SQL store and stored never_ask', () => {
  let dir: string | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a Session stored with the historical never_ask reads (and migrates) as always_allow', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-perm-'));
    const storage = await openStorage({ dataDir: dir, log: silentLogger });
    close = () => storage.close();
    await storage.sessions.create(newSession({ approvalMode: 'never_ask' as never }));
    expect(await storage.sessions.get('ses_perm')).toMatchObject({ approvalMode: 'always_allow', permissionEpoch: 0 });
  });
});
