import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry, type GovernedTool } from '../../../gateway/registry/index.js';
import type { PermissionGate } from '../../../gateway/permissions/index.js';
import { createBroker, withPermission, type Handler } from '../../../gateway/broker/index.js';
import { FakeClock, newResolvedCall, rawOf, searchTool } from '../../fixtures/brokerDoubles.js';
import { testBrokerDeps } from '../../fixtures/testBrokerDeps.js';
import { createGateHarness, pendingRequests, type GateHarness } from '../../fixtures/permissionDoubles.js';
import { dangerousSource, registerDangerousSource } from '../../fixtures/servers/dangerousSource.js';

const writeTool: GovernedTool = {
  ...searchTool,
  name: 'mcp__notes__write_note',
  sourceId: 'notes',
  toolId: 'write_note',
  upstreamName: 'write_note',
  idempotent: false,
  cacheTtlMs: 0,
  envelope: 'generic',
};
const passes = (): Handler => vi.fn(async () => ({ raw: rawOf({ ok: true }) }));

describe('withPermission', () => {
  it('lets built-in read-only queries through without asking anyone', async () => {
    const authorize = vi.fn();
    const next = passes();
    const stage = withPermission({ permissionGate: { authorize } as unknown as PermissionGate, clock: new FakeClock() });
    await stage(next)(newResolvedCall());
    expect(next).toHaveBeenCalledOnce();
    expect(authorize).not.toHaveBeenCalled();
  });

  it('an allowed dangerous call proceeds and the call carries its authorization', async () => {
    const h = await createGateHarness();
    await h.sessions.setApprovalMode('ses_perm', 'always_allow');
    const next = passes();
    const call = newResolvedCall({ tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: (await h.sessions.get('ses_perm'))! });
    await withPermission({ permissionGate: h.gate, clock: h.clock })(next)(call);
    expect(next).toHaveBeenCalledOnce();
    expect(call.trail.facts().authorizationId).toBe(h.store.authorizations[0]!.id);
  });

  it('under always_allow the action does not wait for the authorization\'s write; the call carries the write for its answer', async () => {
    const h = await createGateHarness();
    await h.sessions.setApprovalMode('ses_perm', 'always_allow');
    let durable!: () => void;
    const add = h.store.addAuthorization.bind(h.store);
    vi.spyOn(h.store, 'addAuthorization').mockImplementation(async (record) => {
      await new Promise<void>((resolve) => (durable = resolve));
      return add(record);
    });
    const next = passes();
    const call = newResolvedCall({ tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: (await h.sessions.get('ses_perm'))! });
    await withPermission({ permissionGate: h.gate, clock: h.clock })(next)(call);
    expect(next).toHaveBeenCalledOnce();
    let written = false;
    const writes = call.trail.writesDone().then((outcome) => ((written = true), outcome));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);
    durable();
    expect(await writes).toEqual({});
    expect(h.store.authorizations.map((a) => a.id)).toEqual([call.trail.facts().authorizationId]);
  });

  it('a denied call stops with permission_denied (not retryable), keeps the authorization and never calls next', async () => {
    const h = await createGateHarness();
    const next = passes();
    const call = newResolvedCall({ tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: (await h.sessions.get('ses_perm'))! });
    const running = withPermission({ permissionGate: h.gate, clock: h.clock })(next)(call);
    const [request] = await pendingRequests(h.store, 1);
    await h.gate.decide(request!.id, 'deny', { via: 'admin' });
    await expect(running).rejects.toMatchObject({ code: 'permission_denied', retryable: false });
    expect(call.trail.facts().authorizationId).toBe(h.store.authorizations[0]!.id);
    expect(next).not.toHaveBeenCalled();
  });

  it('keeps a client that asked for progress informed while the human decides, and stops when decided', async () => {
    const h = await createGateHarness();
    const progress: Array<{ progress: number; message?: string }> = [];
    const call = newResolvedCall({
      tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: (await h.sessions.get('ses_perm'))!, onProgress: (p) => progress.push(p),
    });
    const running = withPermission({ permissionGate: h.gate, clock: h.clock })(passes())(call);
    const [request] = await pendingRequests(h.store, 1);
    await until(() => progress.length === 1);
    h.clock.advance(15_000);
    await until(() => progress.length === 2);
    h.clock.advance(15_000);
    await until(() => progress.length === 3);
    expect(progress.map((p) => p.progress)).toEqual([0, 1, 2]);
    expect(progress[0]!.message).toContain(request!.id);
    await h.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    await running;
    h.clock.advance(60_000);
    expect(h.clock.pendingDurations()).toEqual([]);
    expect(progress).toHaveLength(3);
  });
});

/** The whole broker over a real in-memory custom server, a fake clock and memory stores. */
async function brokerWithDangerousTool(options: { approvalTimeoutMs: number; workMs?: number }) {
  const h: GateHarness = await createGateHarness({ approvalTimeoutMs: options.approvalTimeoutMs });
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock: h.clock });
  const source = dangerousSource({ clock: h.clock, workMs: options.workMs ?? 50_000, timeoutSeconds: 60 });
  await registerDangerousSource(registry, source, h.clock);
  const deps = await testBrokerDeps(registry, { clock: h.clock, sessions: h.sessions, permissions: h.store, permissionGate: h.gate });
  const broker = createBroker(deps);
  let n = 0;
  const call = async (name: string, args: Record<string, unknown>) =>
    broker.call({
      invocationId: `inv_b${++n}`, toolName: name, arguments: args, session: (await h.sessions.get('ses_perm'))!, origin: 'agent',
      signal: new AbortController().signal,
    });
  return { ...h, registry, source, invocations: deps.invocations, call, close: () => registry.close() };
}

/** Waits for something the in-memory upstream does asynchronously (bounded by vi.waitFor's limit). */
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 60_000, interval: 1 });

describe('the broker with permissions (fake clock)', () => {
  it('a 60 s tool whose approval takes 10 minutes does not time out: the wait is not tool time', async () => {
    const b = await brokerWithDangerousTool({ approvalTimeoutMs: 30 * 60_000 });
    const running = b.call('mcp__notes__write_note', { text: 'slow' });
    const [request] = await pendingRequests(b.store, 1);
    b.clock.advance(10 * 60_000);
    await b.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    await until(() => b.source.calls.length === 1);
    b.clock.advance(50_000);
    const outcome = await running;
    expect(outcome.result?.data).toMatchObject({ content: [{ type: 'text', text: 'saved: slow' }] });
    expect(b.invocations.rows[0]).toMatchObject({ status: 'ok', authorizationId: b.store.authorizations[0]!.id });
    // The call took 10 min 50 s of wall time against a 60 s tool timeout: the human's 10 minutes were not charged.
    expect(b.invocations.rows[0]!.durationMs).toBe(10 * 60_000 + 50_000);
    await b.close();
  });

  it('the tool timeout still applies once the tool runs', async () => {
    const b = await brokerWithDangerousTool({ approvalTimeoutMs: 30 * 60_000, workMs: 120_000 });
    await b.sessions.setApprovalMode('ses_perm', 'always_allow');
    const running = b.call('mcp__notes__write_note', { text: 'slow' });
    running.catch(() => {});
    await until(() => b.source.calls.length === 1);
    b.clock.advance(60_000);
    await expect(running).rejects.toMatchObject({ code: 'upstream_timeout' });
    await b.close();
  });

  it('a source removed while its call waits for permission ends the call as tool_unavailable, not internal', async () => {
    const b = await brokerWithDangerousTool({ approvalTimeoutMs: 30 * 60_000 });
    const running = b.call('mcp__notes__write_note', { text: 'orphan' });
    const [request] = await pendingRequests(b.store, 1);
    await b.registry.remove('notes');
    await b.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    await expect(running).rejects.toMatchObject({ code: 'tool_unavailable' });
    expect(b.invocations.rows[0]).toMatchObject({ status: 'error', errorCode: 'tool_unavailable' });
    expect(b.source.calls).toEqual([]);
  });

  it('denied and expired actions are audited as invocations with their codes, and nothing reaches the upstream', async () => {
    const b = await brokerWithDangerousTool({ approvalTimeoutMs: 5 * 60_000 });
    const denied = b.call('mcp__notes__delete_note', { id: 'n1' });
    const expired = b.call('mcp__notes__write_note', { text: 'never' });
    const [deniedRequest] = await pendingRequests(b.store, 2);
    await b.gate.decide(deniedRequest!.id, 'deny', { via: 'admin' });
    await expect(denied).rejects.toMatchObject({ code: 'permission_denied' });
    b.clock.advance(5 * 60_000);
    await expect(expired).rejects.toMatchObject({ code: 'permission_expired' });
    const rows = Object.fromEntries(b.invocations.rows.map((r) => [r.toolName, r]));
    expect(rows['mcp__notes__delete_note']).toMatchObject({ status: 'error', errorCode: 'permission_denied', attempts: 0 });
    expect(rows['mcp__notes__delete_note']!.authorizationId).toBe(b.store.authorizations[0]!.id);
    expect(rows['mcp__notes__write_note']).toMatchObject({ status: 'error', errorCode: 'permission_expired', authorizationId: null });
    expect(b.source.calls).toEqual([]);
    await b.close();
  });
});
