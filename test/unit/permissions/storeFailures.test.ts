import { describe, expect, it, vi } from 'vitest';
import { EventHub, GatewayError, SecretScrubber, silentLogger, type PermissionAuthorizationRecord, type PermissionRequestRecord, type PermissionResolution } from '../../../gateway/core/index.js';
import { createPermissionGate, type AuthorizeInput, type PermissionGate } from '../../../gateway/permissions/index.js';
import { MemoryPermissions, MemorySessions, newSession, pendingRequests, sequentialIds } from '../../fixtures/permissionDoubles.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

/** The memory store, whose writes fail (as on a full disk) while `full` is set. */
class FullDiskPermissions extends MemoryPermissions {
  full = false;
  private refuse(): void {
    if (this.full) throw new GatewayError('storage_unavailable', 'The disk is full.');
  }
  override async addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void> {
    this.refuse();
    return super.addAuthorization(authorization);
  }
  override async addRequest(request: PermissionRequestRecord): Promise<void> {
    this.refuse();
    return super.addRequest(request);
  }
  override async resolveRequest(id: string, resolution: PermissionResolution): Promise<boolean> {
    this.refuse();
    return super.resolveRequest(id, resolution);
  }
}

async function setup(options: { adminApproval?: boolean } = {}): Promise<{ gate: PermissionGate; store: FullDiskPermissions; clock: FakeClock; events: EventHub; sessions: MemorySessions }> {
  const sessions = new MemorySessions();
  await sessions.create(newSession());
  const store = new FullDiskPermissions();
  const clock = new FakeClock();
  const events = new EventHub();
  const gate = createPermissionGate({ sessions, store, events, clock, newId: sequentialIds(), log: silentLogger, secrets: new SecretScrubber(), approvalTimeoutMs: 60_000, ...options });
  return { gate, store, clock, events, sessions };
}

let seq = 0;
function ask(gate: PermissionGate, signal = new AbortController().signal, askClient?: AuthorizeInput['askClient']) {
  const input: AuthorizeInput = {
    sessionId: 'ses_perm', invocationId: `inv_${++seq}`, toolName: 'mcp__notes__write_note',
    action: { action: 'tool.call', resource: 'mcp__notes__write_note' }, arguments: { text: 'hello' }, signal, ...(askClient ? { askClient } : {}),
  };
  return gate.authorize(input);
}

describe('PermissionGate when the store cannot record a resolution', () => {
  it('a decision that fails leaves the action waiting: decided again, it is allowed once', async () => {
    const { gate, store } = await setup();
    const call = ask(gate);
    const [request] = await pendingRequests(store, 1);
    store.full = true;
    await expect(gate.decide(request!.id, 'allow_matching', { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    store.full = false;
    await expect(gate.decide(request!.id, 'allow_once', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ allowed: true, basis: 'allow_once' });
  });

  it('an action left waiting by a failed decision or mode switch still ends when its client cancels', async () => {
    const { gate, store } = await setup();
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((c) => ask(gate, c.signal));
    const [request] = await pendingRequests(store, 2);
    store.full = true;
    await expect(gate.decide(request!.id, 'deny', { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    await expect(gate.setApprovalMode('ses_perm', 'always_allow')).rejects.toMatchObject({ code: 'storage_unavailable' });
    store.full = false;
    for (const c of controllers) c.abort(new GatewayError('cancelled', 'The client cancelled the call.'));
    for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('an unanswered action ends with why (cancelled, expired, session end) even when the store cannot record it', async () => {
    const { gate, store, clock } = await setup();
    const controller = new AbortController();
    const cancelled = ask(gate, controller.signal);
    const expiring = ask(gate);
    await pendingRequests(store, 2);
    store.full = true;
    controller.abort(new GatewayError('cancelled', 'The client cancelled the call.'));
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    clock.advance(60_000);
    await expect(expiring).rejects.toMatchObject({ code: 'permission_expired' });
    store.full = false;
    const closing = ask(gate);
    await pendingRequests(store, 3);
    store.full = true;
    await expect(gate.cancelSession('ses_perm')).rejects.toMatchObject({ code: 'storage_unavailable' });
    await expect(closing).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('a decision made in the client that cannot be recorded ends the call at once when nobody else can decide', async () => {
    const { gate, store } = await setup({ adminApproval: false });
    const call = ask(gate, undefined, async () => {
      store.full = true;
      return 'allow_once';
    });
    await expect(call).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringMatching(/decision .* could not be recorded \(The disk is full\.\).*did not run/) });
  });

  it('a request the store cannot record is never announced as pending (no created event without its row)', async () => {
    const { gate, store, events } = await setup();
    const seen: string[] = [];
    events.subscribe((event) => void seen.push(event.type));
    store.full = true;
    await expect(ask(gate)).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(seen.filter((type) => type.startsWith('permission_request.'))).toEqual([]);
  });

  it('an allow_matching decision that fails leaves no Grant: a later matching call asks, and deciding again makes one Grant', async () => {
    const { gate, store } = await setup();
    const call = ask(gate);
    const [request] = await pendingRequests(store, 1);
    store.full = true;
    await expect(gate.decide(request!.id, 'allow_matching', { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    store.full = false;
    expect(await store.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    const later = ask(gate);
    await pendingRequests(store, 2);
    await expect(gate.decide(request!.id, 'allow_matching', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ basis: 'allow_matching' });
    await expect(later).resolves.toMatchObject({ basis: 'grant' });
    expect(store.grants).toHaveLength(1);
  });

  it('an allow_matching decision whose request cannot be resolved takes its Grant back', async () => {
    const { gate, store } = await setup();
    const call = ask(gate);
    const [request] = await pendingRequests(store, 1);
    vi.spyOn(store, 'resolveRequest').mockRejectedValueOnce(new GatewayError('storage_unavailable', 'The disk is full.'));
    await expect(gate.decide(request!.id, 'allow_matching', { via: 'admin' })).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(await store.findGrant('ses_perm', 'tool.call', 'mcp__notes__write_note')).toBeUndefined();
    await expect(gate.decide(request!.id, 'allow_once', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ basis: 'allow_once' });
  });

  it('a switch to always_allow whose release cannot be written leaves the Session asking and its waiting action decidable', async () => {
    const { gate, store, sessions } = await setup();
    const call = ask(gate);
    const [request] = await pendingRequests(store, 1);
    store.full = true;
    await expect(gate.setApprovalMode('ses_perm', 'always_allow')).rejects.toMatchObject({ code: 'storage_unavailable' });
    store.full = false;
    expect(await sessions.get('ses_perm')).toMatchObject({ approvalMode: 'ask_for_dangerous', permissionEpoch: 0 });
    await expect(gate.decide(request!.id, 'allow_once', { via: 'admin' })).resolves.toMatchObject({ status: 'allowed' });
    await expect(call).resolves.toMatchObject({ basis: 'allow_once' });
  });

  it('a switch to always_allow stored with its authorizations releases the waiting action even when its request cannot be resolved', async () => {
    const { gate, store } = await setup();
    const call = ask(gate);
    await pendingRequests(store, 1);
    vi.spyOn(store, 'resolveRequest').mockRejectedValueOnce(new GatewayError('storage_unavailable', 'The disk is full.'));
    await expect(gate.setApprovalMode('ses_perm', 'always_allow')).resolves.toMatchObject({ approvalMode: 'always_allow', permissionEpoch: 1 });
    await expect(call).resolves.toMatchObject({ basis: 'always_allow', allowed: true, epoch: 1 });
  });
});
