import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../storage/index.js';
import { silentLogger, type PermissionRequestRecord, type PermissionStore, type SessionStore } from '../../gateway/core/index.js';
import { MemoryPermissions, MemorySessions, newSession } from '../fixtures/permissionDoubles.js';

let dir: string | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
  close = undefined;
});

interface Stores {
  permissions: PermissionStore;
  sessions: SessionStore;
  /** Closes and reopens the stores on the same data (undefined for memory stores). */
  reopen?: () => Promise<Stores>;
}

async function sqlStores(path: string): Promise<Stores> {
  const storage = await openStorage({ dataDir: path, log: silentLogger });
  close = () => storage.close();
  return {
    permissions: storage.permissions,
    sessions: storage.sessions,
    reopen: async () => {
      await storage.close();
      return sqlStores(path);
    },
  };
}

/** Every PermissionStore (and the SessionStore's approval mode) must pass this suite. */
const implementations: Array<[string, () => Promise<Stores>]> = [
  ['memory', async () => ({ permissions: new MemoryPermissions(), sessions: new MemorySessions() })],
  ['sql.js + journal', async () => sqlStores((dir = await mkdtemp(join(tmpdir(), 'scigate-perm-'))))],
];

function request(overrides: Partial<PermissionRequestRecord> = {}): PermissionRequestRecord {
  return {
    id: 'preq_1', sessionId: 'ses_perm', projectId: 'default', invocationId: 'inv_1', toolName: 'mcp__notes__write_note',
    action: 'tool.call', resource: 'mcp__notes__write_note', argumentsPreview: '{"text":"x"}', epoch: 0, status: 'pending',
    resolution: null, resolvedVia: null, grantId: null, authorizationId: null, createdAt: '2026-12-01T00:00:00.000Z',
    expiresAt: '2026-12-01T00:15:00.000Z', resolvedAt: null, ...overrides,
  };
}

const resolved = { status: 'allowed', resolution: 'allow_once', resolvedVia: 'admin', grantId: null, authorizationId: 'pauth_1', resolvedAt: '2026-12-01T00:01:00.000Z' } as const;

describe.each(implementations)('PermissionStore contract: %s', (_name, create) => {
  it('a pending request is resolved once; the second resolver loses', async () => {
    const { permissions } = await create();
    await permissions.addRequest(request());
    expect(permissions.listRequests('ses_perm', { status: 'pending' })).toHaveLength(1);
    expect(await permissions.resolveRequest('preq_1', resolved)).toBe(true);
    expect(await permissions.resolveRequest('preq_1', { ...resolved, status: 'denied', resolution: 'deny' })).toBe(false);
    expect(permissions.getRequest('preq_1')).toEqual(request({ ...resolved }));
    expect(permissions.listRequests('ses_perm', { status: 'pending' })).toEqual([]);
  });

  it('Grants match exactly one action and resource until revoked', async () => {
    const { permissions } = await create();
    const grant = { id: 'grt_1', sessionId: 'ses_perm', action: 'tool.call', resource: 'mcp__notes__write_note', requestId: 'preq_1', epoch: 0, createdAt: '2026-12-01T00:00:00.000Z', revokedAt: null };
    await permissions.addGrant(grant);
    expect(permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toEqual(grant);
    expect(permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__delete_note')).toBeUndefined();
    expect(permissions.findGrant('ses_other', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    expect(await permissions.revokeGrant('grt_1', '2026-12-01T00:02:00.000Z')).toBe(true);
    expect(await permissions.revokeGrant('grt_1', '2026-12-01T00:03:00.000Z')).toBe(false);
    expect(permissions.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    expect(permissions.listGrants('ses_perm')).toEqual([{ ...grant, revokedAt: '2026-12-01T00:02:00.000Z' }]);
  });

  it('authorizations are appended and listed per Session in order', async () => {
    const { permissions } = await create();
    const base = { sessionId: 'ses_perm', invocationId: 'inv_1', requestId: null, grantId: null, action: 'tool.call', resource: 'r', via: 'mode', epoch: 1, createdAt: '2026-12-01T00:00:00.000Z' } as const;
    await permissions.addAuthorization({ ...base, id: 'pauth_1', basis: 'always_allow', allowed: true });
    await permissions.addAuthorization({ ...base, id: 'pauth_2', basis: 'deny', allowed: false, via: 'admin' });
    expect(permissions.listAuthorizations('ses_perm').map((a) => [a.id, a.allowed, a.epoch])).toEqual([['pauth_1', true, 1], ['pauth_2', false, 1]]);
    expect(permissions.listAuthorizations('ses_other')).toEqual([]);
  });

  it('orphanPending marks only pending requests, and they stay orphaned across a restart', async () => {
    const stores = await create();
    await stores.permissions.addRequest(request());
    await stores.permissions.addRequest(request({ id: 'preq_2' }));
    await stores.permissions.resolveRequest('preq_2', resolved);
    const reopened = stores.reopen ? await stores.reopen() : stores;
    expect(await reopened.permissions.orphanPending('2026-12-01T01:00:00.000Z')).toBe(1);
    expect(reopened.permissions.getRequest('preq_1')).toMatchObject({ status: 'orphaned', resolvedVia: 'startup' });
    expect(reopened.permissions.getRequest('preq_2')).toMatchObject({ status: 'allowed' });
    expect(await reopened.permissions.orphanPending('2026-12-01T01:00:00.000Z')).toBe(0);
  });

  it('changing the approval mode rotates the epoch; setting the same mode does not', async () => {
    const { sessions } = await create();
    await sessions.create(newSession());
    expect((await sessions.setApprovalMode('ses_perm', 'always_allow')).permissionEpoch).toBe(1);
    expect((await sessions.setApprovalMode('ses_perm', 'always_allow')).permissionEpoch).toBe(1);
    expect(await sessions.setApprovalMode('ses_perm', 'ask_for_dangerous')).toMatchObject({ approvalMode: 'ask_for_dangerous', permissionEpoch: 2 });
  });
});

describe('the SQL store and stored never_ask', () => {
  it('a Session stored with the historical never_ask reads (and migrates) as always_allow', async () => {
    const path = (dir = await mkdtemp(join(tmpdir(), 'scigate-perm-')));
    const storage = await openStorage({ dataDir: path, log: silentLogger });
    close = () => storage.close();
    await storage.sessions.create(newSession({ approvalMode: 'never_ask' as never }));
    expect(storage.sessions.get('ses_perm')).toMatchObject({ approvalMode: 'always_allow', permissionEpoch: 0 });
  });
});
