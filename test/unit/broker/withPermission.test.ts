import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry, type GovernedTool } from '../../../gateway/registry/index.js';
import type { PermissionGate } from '../../../gateway/permissions/index.js';
import { createBroker, newCallAudit, type Handler, type ToolCall } from '../../../gateway/broker/index.js';
import { withPermission } from '../../../gateway/broker/stages/withPermission.js';
import { FakeClock, MemoryCas, MemoryInvocations, newToolCall, rawOf, searchTool } from '../../fixtures/brokerDoubles.js';
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
    const stage = withPermission({ gate: { authorize } as unknown as PermissionGate, clock: new FakeClock() });
    await stage(next)(newToolCall());
    expect(next).toHaveBeenCalledOnce();
    expect(authorize).not.toHaveBeenCalled();
  });

  it('an allowed dangerous call proceeds and the call carries its authorization', async () => {
    const h = await createGateHarness();
    await h.sessions.setApprovalMode('ses_perm', 'always_allow');
    const next = passes();
    const call = newToolCall({ tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: h.sessions.get('ses_perm')! });
    await withPermission({ gate: h.gate, clock: h.clock })(next)(call);
    expect(next).toHaveBeenCalledOnce();
    expect(call.audit.authorizationId).toBe(h.store.authorizations[0]!.id);
  });

  it('a denied call stops with permission_denied (not retryable), keeps the authorization and never calls next', async () => {
    const h = await createGateHarness();
    const next = passes();
    const call = newToolCall({ tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: h.sessions.get('ses_perm')! });
    const running = withPermission({ gate: h.gate, clock: h.clock })(next)(call);
    const [request] = await pendingRequests(h.store, 1);
    await h.gate.decide(request!.id, 'deny', { via: 'admin' });
    await expect(running).rejects.toMatchObject({ code: 'permission_denied', retryable: false });
    expect(call.audit.authorizationId).toBe(h.store.authorizations[0]!.id);
    expect(next).not.toHaveBeenCalled();
  });

  it('keeps a client that asked for progress informed while the human decides, and stops when decided', async () => {
    const h = await createGateHarness();
    const progress: Array<{ progress: number; message?: string }> = [];
    const call = newToolCall({
      tool: writeTool, toolName: writeTool.name, arguments: { text: 'x' }, session: h.sessions.get('ses_perm')!, onProgress: (p) => progress.push(p),
    });
    const running = withPermission({ gate: h.gate, clock: h.clock })(passes())(call);
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
    await new Promise((r) => setTimeout(r, 5));
    expect(progress).toHaveLength(3);
  });

  it('without a permission service dangerous calls are refused (fail closed)', async () => {
    const next = passes();
    await expect(withPermission({ gate: undefined, clock: new FakeClock() })(next)(newToolCall({ tool: writeTool }))).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect(next).not.toHaveBeenCalled();
  });
});

/** The whole broker over a real in-memory custom server, a fake clock and memory stores. */
async function brokerWithDangerousTool(options: { approvalTimeoutMs: number; workMs?: number }) {
  const h: GateHarness = await createGateHarness({ approvalTimeoutMs: options.approvalTimeoutMs });
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock: h.clock });
  const source = dangerousSource({ clock: h.clock, workMs: options.workMs ?? 50_000, timeoutSeconds: 60 });
  await registerDangerousSource(registry, source, h.clock);
  const invocations = new MemoryInvocations();
  const broker = createBroker({ registry, invocations, cas: new MemoryCas(), clock: h.clock, log: silentLogger, permissionGate: h.gate });
  let n = 0;
  const calls: ToolCall[] = [];
  const call = (name: string, args: Record<string, unknown>) => {
    const toolCall: ToolCall = {
      invocationId: `inv_b${++n}`, toolName: name, arguments: args, session: h.sessions.get('ses_perm')!, origin: 'agent',
      signal: new AbortController().signal, audit: newCallAudit(),
    };
    calls.push(toolCall);
    return broker.call(toolCall);
  };
  return { ...h, source, invocations, call, calls, close: () => registry.close() };
}

/** Waits (at most 5 s of real time) for something the in-memory upstream does asynchronously. */
async function until(check: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > giveUpAt) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 1));
  }
}

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
    expect(outcome.result.data).toMatchObject({ content: [{ type: 'text', text: 'saved: slow' }] });
    expect(b.invocations.rows[0]).toMatchObject({ status: 'ok', authorizationId: b.store.authorizations[0]!.id });
    // The call took 10 min 50 s of wall time; the human's 10 minutes were held, only the tool's 50 s were charged.
    expect(b.calls[0]!.deadline!.heldMs()).toBe(10 * 60_000);
    expect(b.calls[0]!.deadline!.chargedMs()).toBe(50_000);
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
