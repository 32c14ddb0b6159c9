import { describe, expect, it, vi } from 'vitest';
import { EventHub, GatewayError, SecretScrubber, silentLogger, type EventRelay, type RelayedEvent } from '../../../gateway/core/index.js';
import { createPermissionGate, type PermissionGate } from '../../../gateway/permissions/index.js';
import { MemoryPermissions, MemorySessions, newSession, pendingRequests } from '../../fixtures/permissionDoubles.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

/**
 * Two replicas' gates over one store and an in-process relay (what PostgreSQL and Redis give the
 * deployment): a decision sent to A for an action waiting on B, when one of A's writes fails.
 */
function memoryRelay(): EventRelay {
  const listeners = new Set<(event: RelayedEvent) => void>();
  return {
    send: (event) => {
      for (const listener of [...listeners]) listener(event);
    },
    listen: (onEvent) => {
      listeners.add(onEvent);
      return () => void listeners.delete(onEvent);
    },
  };
}

async function replicas(): Promise<{ a: PermissionGate; b: PermissionGate; store: MemoryPermissions }> {
  const sessions = new MemorySessions();
  await sessions.create(newSession());
  const store = new MemoryPermissions();
  const relay = memoryRelay();
  const gate = (name: string) => {
    const events = new EventHub();
    events.connect(relay, name);
    let n = 0;
    // Ids unique across both replicas: they share the store.
    const newId = (prefix: string) => `${prefix}_${name}${++n}`;
    return createPermissionGate({ sessions, store, events, clock: new FakeClock(), newId, log: silentLogger, secrets: new SecretScrubber() });
  };
  return { a: gate('a'), b: gate('b'), store };
}

let seq = 0;
function ask(gate: PermissionGate) {
  const action = { action: 'tool.call', resource: 'mcp__notes__write_note' } as const;
  return gate.authorize({
    sessionId: 'ses_perm', invocationId: `inv_${++seq}`, toolName: action.resource, action, arguments: { text: 'hi' }, signal: new AbortController().signal,
  });
}

const diskFull = () => new GatewayError('storage_unavailable', 'The disk is full.');

describe('a decision for an action waiting on another replica, when the store cannot record part of it', () => {
  it.each(['allow_once', 'deny'] as const)('%s whose authorization cannot be written leaves the request pending: decided again, the action gets a stored authorization', async (decision) => {
    const { a, b, store } = await replicas();
    const call = ask(b);
    const [request] = await pendingRequests(store, 1);
    vi.spyOn(store, 'addAuthorization').mockRejectedValueOnce(diskFull());
    await expect(a.decide(request!.id, decision, { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(await store.getRequest(request!.id)).toMatchObject({ status: 'pending', authorizationId: null });
    await expect(a.decide(request!.id, decision, { via: 'admin' })).resolves.toMatchObject({ status: decision === 'deny' ? 'denied' : 'allowed' });
    const authorization = await call;
    expect(authorization).toMatchObject({ basis: decision, allowed: decision !== 'deny', requestId: request!.id });
    expect(store.authorizations.map((x) => x.id)).toContain(authorization.id);
  });

  it('allow_matching whose Grant cannot be written leaves the request pending and no Grant: decided again, it makes one', async () => {
    const { a, b, store } = await replicas();
    const call = ask(b);
    const [request] = await pendingRequests(store, 1);
    vi.spyOn(store, 'addGrant').mockRejectedValueOnce(diskFull());
    await expect(a.decide(request!.id, 'allow_matching', { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(await store.getRequest(request!.id)).toMatchObject({ status: 'pending', grantId: null });
    await expect(a.decide(request!.id, 'allow_matching', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ basis: 'allow_matching' });
    await expect(ask(b)).resolves.toMatchObject({ basis: 'grant' });
    expect(store.grants).toHaveLength(1);
  });

  it.each([
    ['cannot be resolved', 'storage_unavailable', () => Promise.reject(diskFull())],
    ['loses to another decision', 'conflict', () => Promise.resolve(false)],
  ] as const)('allow_matching whose request %s takes its Grant back', async (_how, code, resolve) => {
    const { a, b, store } = await replicas();
    const call = ask(b);
    const [request] = await pendingRequests(store, 1);
    vi.spyOn(store, 'resolveRequest').mockImplementationOnce(resolve);
    await expect(a.decide(request!.id, 'allow_matching', { via: 'admin' })).rejects.toMatchObject({ code });
    expect(await store.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    await expect(a.decide(request!.id, 'allow_once', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ basis: 'allow_once' });
  });
});
