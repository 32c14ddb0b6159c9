import { describe, expect, it, vi } from 'vitest';
import { CallDeadline, GatewayError, SecretScrubber, silentLogger, EventHub, type PermissionAuthorizationRecord } from '../../../gateway/core/index.js';
import { createPermissionGate, dangerousToolCall, type AuthorizeInput, type ClientApprover } from '../../../gateway/permissions/index.js';
import { createGateHarness, pendingRequests, MemoryPermissions, MemorySessions, type GateHarness } from '../../fixtures/permissionDoubles.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

const WRITE = { action: 'tool.call' as const, resource: 'mcp__notes__write_note' };
const DELETE = { action: 'tool.call' as const, resource: 'mcp__notes__delete_note' };

let seq = 0;
function ask(h: GateHarness, overrides: Partial<AuthorizeInput> = {}) {
  const input: AuthorizeInput = {
    sessionId: 'ses_perm',
    invocationId: `inv_${++seq}`,
    toolName: 'mcp__notes__write_note',
    action: WRITE,
    arguments: { text: 'hello' },
    signal: new AbortController().signal,
    ...overrides,
  };
  const tracked = { done: false, promise: h.gate.authorize(input) };
  tracked.promise.then(() => (tracked.done = true), () => (tracked.done = true));
  return tracked;
}
const tick = () => new Promise((r) => setImmediate(r));

describe('dangerous actions', () => {
  it('custom (generic) tools are tool.call on their mcp__ name; built-in queries are not dangerous', () => {
    expect(dangerousToolCall({ sourceId: 'notes', toolId: 'write_note', envelope: 'generic' })).toEqual(WRITE);
    expect(dangerousToolCall({ sourceId: 'arxiv', toolId: 'search', envelope: 'scientific' })).toBeUndefined();
  });
});

describe('PermissionGate', () => {
  it('without an admin API and a client that cannot be asked, an action is refused at once, naming --admin-port and always_allow', async () => {
    const h = await createGateHarness({ adminApproval: false });
    const refused = await ask(h).promise.catch((error: unknown) => error as GatewayError);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe('permission_denied');
    expect((refused as GatewayError).message).toMatch(/--admin-port.*always_allow/s);
    expect(await h.store.listRequests('ses_perm', { status: 'pending' })).toEqual([]);
    // A client that can be asked still is.
    const askClient: ClientApprover = async () => 'allow_once';
    expect((await ask(h, { askClient }).promise).allowed).toBe(true);
  });

  it('N actions decided allow_once: N authorizations, no Grant, each released by its own decision', async () => {
    const h = await createGateHarness();
    const calls = [ask(h), ask(h), ask(h)];
    const pending = await pendingRequests(h.store, 3);
    await h.gate.decide(pending[0]!.id, 'allow_once', { via: 'admin' });
    await tick();
    expect(calls.map((c) => c.done)).toEqual([true, false, false]);
    for (const request of pending.slice(1)) await h.gate.decide(request.id, 'allow_once', { via: 'admin' });
    const authorizations = await Promise.all(calls.map((c) => c.promise));
    expect(authorizations.map((a) => [a.basis, a.allowed, a.grantId])).toEqual(Array(3).fill(['allow_once', true, null]));
    expect(new Set(authorizations.map((a) => a.invocationId)).size).toBe(3);
    expect(h.store.authorizations).toHaveLength(3);
    expect(h.store.grants).toHaveLength(0);
  });

  it('an action whose Grant lookup overlapped an allow_matching decision is released by that Grant, not left waiting', async () => {
    const h = await createGateHarness();
    const first = ask(h);
    const [request] = await pendingRequests(h.store, 1);
    // The second action's lookup answers "no Grant" from before the decision, and is held until the decision has landed.
    const realFindGrant = h.store.findGrant.bind(h.store);
    let lookedUp!: () => void;
    let release!: () => void;
    const looked = new Promise<void>((resolve) => (lookedUp = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(h.store, 'findGrant').mockImplementationOnce(async (...args) => {
      const stale = await realFindGrant(...args);
      lookedUp();
      await held;
      return stale;
    });
    const second = ask(h);
    await looked;
    await h.gate.decide(request!.id, 'allow_matching', { via: 'admin' });
    release();
    await vi.waitFor(() => expect(second.done).toBe(true));
    expect(await second.promise).toMatchObject({ basis: 'grant', allowed: true });
    expect(await first.promise).toMatchObject({ basis: 'allow_matching' });
    expect(await h.store.listRequests('ses_perm', { status: 'pending' })).toEqual([]);
  });

  it('an action whose Session read overlapped a switch to always_allow is allowed by the mode, not left waiting', async () => {
    const h = await createGateHarness();
    const realGet = h.sessions.get.bind(h.sessions);
    let read!: () => void;
    let release!: () => void;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(h.sessions, 'get').mockImplementationOnce(async (id) => {
      const stale = await realGet(id);
      read();
      await held;
      return stale;
    });
    const action = ask(h);
    await wasRead;
    await h.gate.setApprovalMode('ses_perm', 'always_allow');
    release();
    await vi.waitFor(() => expect(action.done).toBe(true));
    expect(await action.promise).toMatchObject({ basis: 'always_allow', allowed: true, epoch: 1 });
    expect(h.store.requests).toHaveLength(0);
  });

  it.each([
    ['an allow_matching decision', 'grant'],
    ['a switch to always_allow', 'always_allow'],
  ] as const)('an action that arrives while %s is being written is released by it, not left waiting', async (what, basis) => {
    const h = await createGateHarness();
    const first = ask(h);
    const [request] = await pendingRequests(h.store, 1);
    // The released action's authorization is held, so the Grant or the mode is not written yet.
    const realAdd = h.store.addAuthorization.bind(h.store);
    let writing!: () => void;
    let release!: () => void;
    const started = new Promise<void>((resolve) => (writing = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(h.store, 'addAuthorization').mockImplementationOnce(async (authorization) => {
      writing();
      await held;
      return realAdd(authorization);
    });
    const releasing = what === 'a switch to always_allow'
      ? h.gate.setApprovalMode('ses_perm', 'always_allow')
      : h.gate.decide(request!.id, 'allow_matching', { via: 'admin' });
    await started;
    const second = ask(h);
    await tick();
    release();
    await releasing;
    await vi.waitFor(() => expect(second.done).toBe(true));
    expect(await second.promise).toMatchObject({ basis, allowed: true, requestId: null });
    expect(await first.promise).toMatchObject({ allowed: true });
    expect(h.store.requests).toHaveLength(1);
  });

  it('allow_matching on one of N matching actions: 1 Grant, N authorizations, all released together; a later match reuses it', async () => {
    const h = await createGateHarness();
    const matching = [ask(h), ask(h), ask(h)];
    const other = ask(h, { action: DELETE, toolName: 'mcp__notes__delete_note' });
    const pending = await pendingRequests(h.store, 4);
    const decided = await h.gate.decide(pending[1]!.id, 'allow_matching', { via: 'admin' });
    // Every matching action is released by the time the decision answers, the other one is not.
    await tick();
    expect(matching.map((c) => c.done)).toEqual([true, true, true]);
    expect(other.done).toBe(false);
    expect(h.store.grants).toHaveLength(1);
    const grant = h.store.grants[0]!;
    expect(grant).toMatchObject({ ...WRITE, sessionId: 'ses_perm', requestId: decided.id, revokedAt: null });
    const auths = await Promise.all(matching.map((c) => c.promise));
    expect(auths.map((a) => a.basis).sort()).toEqual(['allow_matching', 'grant', 'grant']);
    expect(auths.every((a) => a.grantId === grant.id && a.allowed)).toBe(true);
    expect((await h.store.listRequests('ses_perm', { status: 'pending' })).map((r) => r.resource)).toEqual([DELETE.resource]);

    const later = await ask(h).promise;
    expect(later).toMatchObject({ basis: 'grant', grantId: grant.id, requestId: null, via: 'grant' });
    expect(h.store.requests).toHaveLength(4);
    expect(h.store.authorizations).toHaveLength(4);
  });

  it('a revoked Grant no longer matches: the next action asks again', async () => {
    const h = await createGateHarness();
    const first = ask(h);
    const [request] = await pendingRequests(h.store, 1);
    await h.gate.decide(request!.id, 'allow_matching', { via: 'admin' });
    await first.promise;
    const revoked = await h.gate.revokeGrant(h.store.grants[0]!.id);
    expect(revoked.revokedAt).not.toBeNull();
    ask(h);
    await pendingRequests(h.store, 1);
  });

  it('concurrent actions are decided independently: deny one, allow the other', async () => {
    const h = await createGateHarness();
    const write = ask(h);
    const remove = ask(h, { action: DELETE });
    const [writeRequest, removeRequest] = await pendingRequests(h.store, 2);
    await h.gate.decide(removeRequest!.id, 'deny', { via: 'admin' });
    await tick();
    expect(write.done).toBe(false);
    await h.gate.decide(writeRequest!.id, 'allow_once', { via: 'admin' });
    expect(await remove.promise).toMatchObject({ basis: 'deny', allowed: false, requestId: removeRequest!.id });
    expect(await write.promise).toMatchObject({ basis: 'allow_once', allowed: true, requestId: writeRequest!.id });
    expect(await h.store.getRequest(removeRequest!.id)).toMatchObject({ status: 'denied', resolution: 'deny', resolvedVia: 'admin' });
  });

  it('always_allow authorizes directly, without requests or Grants', async () => {
    const h = await createGateHarness();
    await h.sessions.setApprovalMode('ses_perm', 'always_allow');
    const auth = await ask(h).promise;
    expect(auth).toMatchObject({ basis: 'always_allow', allowed: true, requestId: null, grantId: null, epoch: 1 });
    expect(h.store.requests).toHaveLength(0);
    expect(h.store.grants).toHaveLength(0);
  });

  it('a call that carries its Session is decided by it without reading the Session again', async () => {
    const h = await createGateHarness();
    const session = await h.sessions.setApprovalMode('ses_perm', 'always_allow');
    const reads = vi.spyOn(h.sessions, 'get');
    const auth = await ask(h, { session }).promise;
    expect(auth).toMatchObject({ basis: 'always_allow', allowed: true, epoch: 1 });
    expect(reads).not.toHaveBeenCalled();
  });

  it('a carried Session from before a switch to always_allow is read again before waiting, so the action is allowed', async () => {
    const h = await createGateHarness();
    const stale = (await h.sessions.get('ses_perm'))!;
    await h.gate.setApprovalMode('ses_perm', 'always_allow');
    const auth = await ask(h, { session: stale }).promise;
    expect(auth).toMatchObject({ basis: 'always_allow', allowed: true, epoch: 1 });
    expect(h.store.requests).toHaveLength(0);
  });

  it('switching to always_allow rotates the epoch and wakes every pending action; stale decisions get 409', async () => {
    const h = await createGateHarness();
    const calls = [ask(h), ask(h, { action: DELETE })];
    const pending = await pendingRequests(h.store, 2);
    const session = await h.gate.setApprovalMode('ses_perm', 'always_allow');
    expect(session).toMatchObject({ approvalMode: 'always_allow', permissionEpoch: 1 });
    const auths = await Promise.all(calls.map((c) => c.promise));
    expect(auths.map((a) => [a.basis, a.epoch, a.via])).toEqual([['always_allow', 1, 'mode'], ['always_allow', 1, 'mode']]);
    expect(h.store.grants).toHaveLength(0);
    await expect(h.gate.decide(pending[0]!.id, 'deny', { via: 'admin' })).rejects.toMatchObject({ code: 'conflict' });

    await h.gate.setApprovalMode('ses_perm', 'ask_for_dangerous');
    ask(h);
    const [fresh] = await pendingRequests(h.store, 1);
    expect(fresh!.epoch).toBe(2);
    await expect(h.gate.decide(fresh!.id, 'allow_once', { via: 'admin', epoch: 1 })).rejects.toMatchObject({ code: 'conflict' });
    await h.gate.decide(fresh!.id, 'allow_once', { via: 'admin', epoch: 2 });
    await expect(h.gate.decide(fresh!.id, 'deny', { via: 'admin' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('setting the mode a Session already has does not rotate the epoch', async () => {
    const h = await createGateHarness();
    expect((await h.gate.setApprovalMode('ses_perm', 'ask_for_dangerous')).permissionEpoch).toBe(0);
  });

  it('holds the call deadline while waiting, and the approval timeout expires an unanswered request', async () => {
    const h = await createGateHarness({ approvalTimeoutMs: 5 * 60_000 });
    const deadline = new CallDeadline(h.clock);
    const call = ask(h, { deadline });
    await pendingRequests(h.store, 1);
    expect(deadline.held).toBe(true);
    h.clock.advance(5 * 60_000 - 1);
    await tick();
    expect(call.done).toBe(false);
    h.clock.advance(1);
    await expect(call.promise).rejects.toMatchObject({ code: 'permission_expired' });
    expect(deadline.held).toBe(false);
    expect(deadline.heldMs()).toBe(5 * 60_000);
    expect(h.store.requests[0]).toMatchObject({ status: 'expired', resolvedVia: 'timeout', authorizationId: null });
    expect(h.store.authorizations).toHaveLength(0);
  });

  it('a client cancellation or the session closing cancels the pending request (recorded, not left pending)', async () => {
    const h = await createGateHarness();
    const controller = new AbortController();
    const cancelledCall = ask(h, { signal: controller.signal });
    const closedCall = ask(h);
    const [first, second] = await pendingRequests(h.store, 2);
    controller.abort(new GatewayError('cancelled', 'The client cancelled the call.'));
    await expect(cancelledCall.promise).rejects.toMatchObject({ code: 'cancelled' });
    expect(await h.gate.cancelSession('ses_perm')).toBe(1);
    await expect(closedCall.promise).rejects.toMatchObject({ code: 'cancelled' });
    expect(await h.store.getRequest(first!.id)).toMatchObject({ status: 'cancelled', resolvedVia: 'client' });
    expect(await h.store.getRequest(second!.id)).toMatchObject({ status: 'cancelled', resolvedVia: 'session_end' });
    await expect(h.gate.decide(first!.id, 'allow_once', { via: 'admin' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('of decisions racing on one request one wins; a loser is told the request is decided or being decided, never "decided (pending)"', async () => {
    const h = await createGateHarness();
    const call = ask(h);
    const [request] = await pendingRequests(h.store, 1);
    const outcomes = await Promise.allSettled(['allow_once', 'deny', 'allow_once', 'deny'].map((d) => h.gate.decide(request!.id, d as 'allow_once' | 'deny', { via: 'admin' })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const lost of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(lost.reason).toMatchObject({ code: 'conflict' });
      expect((lost.reason as GatewayError).message).toMatch(/was already decided \((allowed|denied)|is being decided by another decision/);
    }
    await call.promise.catch(() => {});
  });

  it('marks requests left pending by a crash as orphaned', async () => {
    const h = await createGateHarness();
    ask(h);
    const [left] = await pendingRequests(h.store, 1);
    const restarted = createPermissionGate({
      sessions: h.sessions, store: h.store, events: new EventHub(), clock: h.clock, newId: (p) => `${p}_x`, log: silentLogger, secrets: new SecretScrubber(),
    });
    expect(await restarted.orphanPending()).toBe(1);
    expect(await h.store.getRequest(left!.id)).toMatchObject({ status: 'orphaned', resolvedVia: 'startup' });
    await expect(restarted.decide(left!.id, 'allow_once', { via: 'admin' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('publishes new requests and their resolutions for the live event stream', async () => {
    const h = await createGateHarness();
    const call = ask(h);
    const [request] = await pendingRequests(h.store, 1);
    await h.gate.decide(request!.id, 'deny', { via: 'admin' });
    await call.promise;
    expect(h.events.map((e) => e.type)).toEqual(['permission_request.created', 'permission_request.resolved']);
    expect(h.events[1]!.data).toMatchObject({ id: request!.id, status: 'denied' });
  });

  it('rejects a bad approval timeout naming the option', () => {
    const deps = { sessions: new MemorySessions(), store: new MemoryPermissions(), events: new EventHub(), clock: new FakeClock(), newId: () => 'x', log: silentLogger, secrets: new SecretScrubber() };
    expect(() => createPermissionGate({ ...deps, approvalTimeoutMs: 0 })).toThrow(/approvalTimeoutMs/);
  });
});

describe('PermissionGate with a client that can be asked (elicitation)', () => {
  it('the client answering first decides: one authorization via elicitation, the admin then gets 409', async () => {
    const h = await createGateHarness();
    const askClient: ClientApprover = async () => 'allow_once';
    const auth = await ask(h, { askClient }).promise;
    expect(auth).toMatchObject({ basis: 'allow_once', via: 'elicitation', allowed: true });
    expect(h.store.authorizations).toHaveLength(1);
    await expect(h.gate.decide(auth.requestId!, 'deny', { via: 'admin' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('the admin answering first withdraws the question in the client', async () => {
    const h = await createGateHarness();
    let withdrawn = false;
    const askClient: ClientApprover = (_request, signal) =>
      new Promise((resolve) => signal.addEventListener('abort', () => ((withdrawn = true), resolve(undefined))));
    const call = ask(h, { askClient });
    const [request] = await pendingRequests(h.store, 1);
    await h.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    const auth: PermissionAuthorizationRecord = await call.promise;
    expect(auth.via).toBe('admin');
    expect(withdrawn).toBe(true);
  });

  it('a dismissed or failed question leaves the request to the admin path', async () => {
    const h = await createGateHarness();
    const dismissed = ask(h, { askClient: async () => undefined });
    const failed = ask(h, { askClient: async () => Promise.reject(new Error('client went away')) });
    const pending = await pendingRequests(h.store, 2);
    await tick();
    expect([dismissed.done, failed.done]).toEqual([false, false]);
    for (const request of pending) await h.gate.decide(request.id, 'allow_once', { via: 'admin' });
    expect((await dismissed.promise).via).toBe('admin');
    expect((await failed.promise).via).toBe('admin');
  });

  it('without an admin API, a question dismissed in the client ends the wait at once, saying how to approve', async () => {
    const h = await createGateHarness({ adminApproval: false });
    const call = ask(h, { askClient: async () => undefined });
    // Nothing else would end it: the fake clock never reaches the approval timeout.
    await vi.waitFor(() => expect(call.done).toBe(true));
    const refused = await call.promise.catch((error: unknown) => error as GatewayError);
    expect(refused).toMatchObject({ code: 'permission_denied', retryable: false });
    expect((refused as GatewayError).message).toMatch(/dismissed the approval question for mcp__notes__write_note.*--admin-port/s);
    expect(h.store.requests).toEqual([expect.objectContaining({ status: 'cancelled', resolvedVia: 'elicitation', authorizationId: null })]);
    expect(h.store.authorizations).toEqual([]);
  });

  it('without an admin API, a question that fails in the client ends the wait at once too, with the reason', async () => {
    const h = await createGateHarness({ adminApproval: false });
    const call = ask(h, { askClient: async () => Promise.reject(new Error('MCP error -32601: elicitation not supported here')) });
    await vi.waitFor(() => expect(call.done).toBe(true));
    const refused = await call.promise.catch((error: unknown) => error as GatewayError);
    expect(refused).toMatchObject({ code: 'permission_denied', retryable: false });
    expect((refused as GatewayError).message).toMatch(
      /^Asking the user to approve this call to mcp__notes__write_note failed in the MCP client \(MCP error -32601: elicitation not supported here\).*--admin-port/s,
    );
    expect(h.store.requests).toEqual([expect.objectContaining({ status: 'cancelled', resolvedVia: 'elicitation', authorizationId: null })]);
  });
});
