import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';

let upstream: DangerousHttpServer;
let gateway: TestGateway;
let api: AdminApi;
let events: EventStream;
let write: string;
let remove: string;

beforeAll(async () => {
  upstream = await startDangerousHttpServer();
  gateway = await startTestGateway();
  api = adminApi(gateway);
  events = await openEventStream(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
  expect(created.status).toBe(201);
  const tools: Array<{ upstreamName: string; name: string }> = created.body.server.tools;
  write = tools.find((t) => t.upstreamName === 'write_note')!.name;
  remove = tools.find((t) => t.upstreamName === 'delete_note')!.name;
});
afterAll(async () => {
  events.close();
  await gateway.dispose();
  await upstream.close();
});

let agents = 0;
/** A new agent (its own MCP session over streamable HTTP) and its persisted Session id. */
async function agent(): Promise<{ client: Client; sessionId: string }> {
  const name = `perm-agent-${++agents}`;
  const client = await gateway.connect({ name });
  return { client, sessionId: (await api.sessionOf(name)).id };
}
const created = (sessionId: string) => events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId);
const resolved = (requestId: string) => events.next((e) => e.type === 'permission_request.resolved' && e.data.id === requestId);
const decide = (id: string, decision: string, epoch?: number) =>
  api.post(`/api/permission-requests/${id}/decision`, { decision, ...(epoch === undefined ? {} : { epoch }) });
const requestsOf = async (sessionId: string) => (await api.get(`/api/sessions/${sessionId}/permission-requests`)).body;
const authorizationsOf = async (sessionId: string) => (await api.get(`/api/sessions/${sessionId}/authorizations`)).body.authorizations;
const grantsOf = async (sessionId: string) => (await api.get(`/api/sessions/${sessionId}/grants`)).body.grants;
const invocationsOf = async (sessionId: string) => (await api.get(`/api/sessions/${sessionId}/invocations`)).body.invocations;
/** Reads until `done` holds for what `read` returns, then returns it (bounded by vi.waitFor's limit). */
function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`not yet: ${JSON.stringify(value).slice(0, 200)}`);
      return value;
    },
    { timeout: 60_000, interval: 10 },
  );
}
const callsOf = (tool: 'write_note' | 'delete_note') => upstream.calls.filter((c) => c.tool === tool).length;

describe('human approval through the admin API (real SDK client, real custom server over HTTP)', () => {
  it('lists a pending request with what the human needs to decide', async () => {
    const { client, sessionId } = await agent();
    const own = await openEventStream(gateway, `?sessionId=${sessionId}`);
    const call = client.callTool({ name: write, arguments: { text: 'show me' } });
    const request = (await created(sessionId)).data;
    expect((await own.next((e) => e.type === 'permission_request.created')).data.id).toBe(request.id);
    expect(request).toMatchObject({ status: 'pending', action: 'tool.call', toolName: write, epoch: 0, argumentsPreview: '{"text":"show me"}' });
    expect(request.resource).toMatch(/^mcp__custom-[0-9a-f]{12}__/);
    const listed = await requestsOf(sessionId);
    expect(listed).toMatchObject({ epoch: 0, approvalMode: 'ask_for_dangerous', requests: [{ id: request.id, status: 'pending' }] });
    expect((await api.get(`/api/sessions/${sessionId}/permission-requests?status=nope`)).status).toBe(400);
    expect((await decide(request.id, 'maybe')).status).toBe(400);
    expect((await decide(request.id, 'allow_once')).status).toBe(200);
    expect(((await call) as any).isError).toBeFalsy();
    await own.next((e) => e.type === 'permission_request.resolved');
    own.close();
    expect(own.events.every((e) => e.sessionId === sessionId)).toBe(true);
  });

  it('N actions allowed once: N authorizations, no Grant, each invocation references its own', async () => {
    const { client, sessionId } = await agent();
    const before = callsOf('write_note');
    const calls = [1, 2, 3].map((n) => client.callTool({ name: write, arguments: { text: `once ${n}` } }));
    const requests = [await created(sessionId), await created(sessionId), await created(sessionId)].map((e) => e.data);
    expect(callsOf('write_note')).toBe(before);
    for (const request of requests) expect((await decide(request.id, 'allow_once')).body.request).toMatchObject({ status: 'allowed', resolution: 'allow_once' });
    const results = (await Promise.all(calls)) as any[];
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(callsOf('write_note')).toBe(before + 3);
    const authorizations = await authorizationsOf(sessionId);
    expect(authorizations.map((a: any) => [a.basis, a.allowed, a.via])).toEqual(Array(3).fill(['allow_once', true, 'admin']));
    expect(await grantsOf(sessionId)).toEqual([]);
    const invocations = await invocationsOf(sessionId);
    expect(invocations.map((i: any) => i.authorizationId).sort()).toEqual(authorizations.map((a: any) => a.id).sort());
  });

  it('allow_matching on one of N matching actions: 1 Grant, N authorizations, all released together; a later match needs no request', async () => {
    const { client, sessionId } = await agent();
    const before = callsOf('write_note');
    const writes = [1, 2, 3].map((n) => client.callTool({ name: write, arguments: { text: `match ${n}` } }));
    const requests = [await created(sessionId), await created(sessionId), await created(sessionId)].map((e) => e.data);
    const other = client.callTool({ name: remove, arguments: { id: 'n1' } });
    const otherRequest = (await created(sessionId)).data;

    expect((await decide(requests[1].id, 'allow_matching')).status).toBe(200);
    // By the time the decision answers, every matching request is released and the other still waits.
    const after = (await requestsOf(sessionId)).requests;
    expect(after.filter((r: any) => r.resource === requests[0].resource).map((r: any) => r.status)).toEqual(['allowed', 'allowed', 'allowed']);
    expect(after.find((r: any) => r.id === otherRequest.id).status).toBe('pending');
    expect(((await Promise.all(writes)) as any[]).every((r) => !r.isError)).toBe(true);
    const [grant] = await grantsOf(sessionId);
    expect(grant).toMatchObject({ action: 'tool.call', resource: requests[0].resource, requestId: requests[1].id, revokedAt: null });
    expect((await authorizationsOf(sessionId)).map((a: any) => a.basis).sort()).toEqual(['allow_matching', 'grant', 'grant']);

    expect(((await client.callTool({ name: write, arguments: { text: 'later' } })) as any).isError).toBeFalsy();
    expect((await requestsOf(sessionId)).requests).toHaveLength(4);
    const authorizations = await authorizationsOf(sessionId);
    expect(authorizations).toHaveLength(4);
    expect(authorizations[3]).toMatchObject({ basis: 'grant', grantId: grant.id, requestId: null });
    expect(callsOf('write_note')).toBe(before + 4);

    expect((await api.del(`/api/grants/${grant.id}`)).body.grant.revokedAt).not.toBeNull();
    const asksAgain = client.callTool({ name: write, arguments: { text: 'after revoke' } });
    const again = (await created(sessionId)).data;
    await decide(again.id, 'deny');
    await decide(otherRequest.id, 'deny');
    expect(((await asksAgain) as any).structuredContent.error.code).toBe('permission_denied');
    expect(((await other) as any).structuredContent.error.code).toBe('permission_denied');
  });

  it('concurrent actions are decided independently: one denied, the other allowed, each outcome exact', async () => {
    const { client, sessionId } = await agent();
    const [writesBefore, removesBefore] = [callsOf('write_note'), callsOf('delete_note')];
    const writing = client.callTool({ name: write, arguments: { text: 'keep' } });
    const writeRequest = (await created(sessionId)).data;
    const removing = client.callTool({ name: remove, arguments: { id: 'n2' } });
    const removeRequest = (await created(sessionId)).data;
    await decide(removeRequest.id, 'deny');
    const denied = (await removing) as any;
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent.error).toMatchObject({ code: 'permission_denied', retryable: false });
    // Named as the agent called it, not by the gateway's internal mcp__custom-<hex>__ name.
    expect(denied.structuredContent.error.message).toBe(`The user denied the call to ${remove}; do not retry this call.`);
    expect((await requestsOf(sessionId)).requests.find((r: any) => r.id === writeRequest.id).status).toBe('pending');
    await decide(writeRequest.id, 'allow_once');
    const allowed = (await writing) as any;
    expect(allowed.isError).toBeFalsy();
    expect(allowed.content.slice(1)).toEqual([{ type: 'text', text: 'saved: keep' }]);
    expect([callsOf('write_note') - writesBefore, callsOf('delete_note') - removesBefore]).toEqual([1, 0]);
    const rows = await invocationsOf(sessionId);
    const deniedRow = rows.find((r: any) => r.id === denied.structuredContent.invocationId);
    const deny = (await authorizationsOf(sessionId)).find((a: any) => a.basis === 'deny');
    expect(deniedRow).toMatchObject({ status: 'error', errorCode: 'permission_denied', authorizationId: deny.id });
  });

  it('switching to always_allow rotates the epoch and wakes every pending action; stale decisions get 409', async () => {
    const { client, sessionId } = await agent();
    const calls = [client.callTool({ name: write, arguments: { text: 'wake 1' } }), client.callTool({ name: remove, arguments: { id: 'n3' } })];
    const requests = [(await created(sessionId)).data, (await created(sessionId)).data];
    const patched = await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
    expect(patched.body.session).toMatchObject({ approvalMode: 'always_allow', permissionEpoch: 1 });
    expect(((await Promise.all(calls)) as any[]).every((r) => !r.isError)).toBe(true);
    expect((await authorizationsOf(sessionId)).map((a: any) => [a.basis, a.epoch])).toEqual([['always_allow', 1], ['always_allow', 1]]);
    expect(await grantsOf(sessionId)).toEqual([]);
    const stale = await decide(requests[0].id, 'deny');
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');

    expect((await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'ask_for_dangerous' })).body.session.permissionEpoch).toBe(2);
    const pending = client.callTool({ name: write, arguments: { text: 'epoch 2' } });
    const fresh = (await created(sessionId)).data;
    expect(fresh.epoch).toBe(2);
    expect((await decide(fresh.id, 'allow_once', 1)).status).toBe(409);
    expect((await decide(fresh.id, 'allow_once', 2)).status).toBe(200);
    expect((await decide(fresh.id, 'deny', 2)).status).toBe(409);
    expect(((await pending) as any).isError).toBeFalsy();

    // The legacy never_ask migrates in stored data only: over the API it must not silently allow everything.
    expect((await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'never_ask' })).status).toBe(400);
    expect((await api.get(`/api/sessions/${sessionId}`)).body.session).toMatchObject({ approvalMode: 'ask_for_dangerous', permissionEpoch: 2 });
    expect((await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'sometimes' })).status).toBe(400);
    expect((await api.patch('/api/sessions/ses_nope', { approvalMode: 'always_allow' })).status).toBe(404);
  });

  it('a client cancelling the call, or closing its session, cancels the pending request; nothing reaches the upstream', async () => {
    const before = upstream.calls.length;
    const { client, sessionId } = await agent();
    const controller = new AbortController();
    const cancelled = client.callTool({ name: write, arguments: { text: 'cancel me' } }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
    const first = (await created(sessionId)).data;
    controller.abort();
    await cancelled;
    expect((await resolved(first.id)).data).toMatchObject({ status: 'cancelled', resolvedVia: 'client' });

    void client.callTool({ name: write, arguments: { text: 'close me' } }).catch(() => {});
    const second = (await created(sessionId)).data;
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect((await resolved(second.id)).data.status).toBe('cancelled');
    expect((await requestsOf(sessionId)).requests.map((r: any) => r.status)).toEqual(['cancelled', 'cancelled']);
    // The audit row is written as the cancelled call unwinds, just after the request is resolved.
    const rows = await eventually(() => invocationsOf(sessionId), (r) => r.length === 2);
    expect(rows.map((r: any) => [r.status, r.errorCode])).toEqual([['cancelled', 'cancelled'], ['cancelled', 'cancelled']]);
    expect(upstream.calls.length).toBe(before);
    expect((await decide(first.id, 'allow_once')).status).toBe(409);
  });

  it('built-in queries and unknown ids need no decision; a decision for an unknown request is 404', async () => {
    expect((await decide('preq_missing', 'allow_once')).status).toBe(404);
    expect((await api.del('/api/grants/grt_missing')).status).toBe(404);
    expect((await api.get('/api/sessions/ses_missing/authorizations')).status).toBe(404);
  });
});
