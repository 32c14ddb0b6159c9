import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../fixtures/eventStream.js';
import { mcpPost, rawMcpSession, readRpcStream } from '../fixtures/rawMcp.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';

interface Setup {
  gateway: TestGateway;
  api: AdminApi;
  events: EventStream;
  write: string;
}

let upstream: DangerousHttpServer;
let on: Setup;
let off: Setup;

async function setup(elicitation: boolean): Promise<Setup> {
  const gateway = await startTestGateway({}, undefined, { elicitation });
  const api = adminApi(gateway);
  const events = await openEventStream(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
  return { gateway, api, events, write: created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name };
}

beforeAll(async () => {
  upstream = await startDangerousHttpServer();
  on = await setup(true);
  off = await setup(false);
});
afterAll(async () => {
  for (const s of [on, off]) {
    s.events.close();
    await s.gateway.dispose();
  }
  await upstream.close();
});

let agents = 0;
type Answer = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;

/** An agent whose client declared elicitation (when `answer` is given) and answers with it. */
async function agent(s: Setup, answer?: Answer): Promise<{ client: Client; sessionId: string; asked: ElicitRequest[] }> {
  const name = `elicit-agent-${++agents}`;
  const asked: ElicitRequest[] = [];
  const client = await s.gateway.connect({ name, ...(answer ? { capabilities: { elicitation: {} } } : {}) });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request);
      return answer(request, extra.signal);
    });
  }
  return { client, sessionId: (await s.api.sessionOf(name)).id, asked };
}

const choose = (decision: string): Answer => async () => ({ action: 'accept', content: { decision } });
const authorizationsOf = async (s: Setup, sessionId: string) => (await s.api.get(`/api/sessions/${sessionId}/authorizations`)).body.authorizations;

describe('asking inside the agent\'s own client (MCP elicitation)', () => {
  it('approving in the client completes the call and writes one authorization; the admin then gets 409', async () => {
    const before = upstream.calls.length;
    const { client, sessionId, asked } = await agent(on, choose('allow_once'));
    const result = (await client.callTool({ name: on.write, arguments: { text: 'from the client' } })) as any;
    expect(result.isError).toBeFalsy();
    expect(upstream.calls.length).toBe(before + 1);
    expect(asked).toHaveLength(1);
    const form = asked[0]!.params as any;
    // The tool as the agent called it, then the action and stable resource a Grant would cover.
    expect(form.message.startsWith(`scigate needs your permission: ${on.write} (tool.call mcp__custom-`)).toBe(true);
    expect(form.requestedSchema.properties.decision.oneOf.map((o: any) => o.title)).toEqual(['Allow once', 'Allow same type (this session)', 'Deny']);
    const authorizations = await authorizationsOf(on, sessionId);
    expect(authorizations).toEqual([expect.objectContaining({ basis: 'allow_once', via: 'elicitation', allowed: true })]);
    const [request] = (await on.api.get(`/api/sessions/${sessionId}/permission-requests`)).body.requests;
    expect(request).toMatchObject({ status: 'allowed', resolvedVia: 'elicitation', authorizationId: authorizations[0].id });
    expect((await on.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'deny' })).status).toBe(409);
  });

  it('"allow same type" in the client creates a Grant: the next matching call is not asked again', async () => {
    const { client, sessionId, asked } = await agent(on, choose('allow_matching'));
    expect(((await client.callTool({ name: on.write, arguments: { text: 'one' } })) as any).isError).toBeFalsy();
    expect(((await client.callTool({ name: on.write, arguments: { text: 'two' } })) as any).isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect((await on.api.get(`/api/sessions/${sessionId}/grants`)).body.grants).toHaveLength(1);
    expect((await authorizationsOf(on, sessionId)).map((a: any) => a.basis)).toEqual(['allow_matching', 'grant']);
  });

  it('declining in the client denies the action', async () => {
    const before = upstream.calls.length;
    const { client } = await agent(on, async () => ({ action: 'decline' }));
    const result = (await client.callTool({ name: on.write, arguments: { text: 'no' } })) as any;
    expect(result.structuredContent.error.code).toBe('permission_denied');
    expect(upstream.calls.length).toBe(before);
  });

  it('a question answered in the client is not cancelled afterwards: no notifications/cancelled for a finished request', async () => {
    const session = await rawMcpSession(on.gateway, `elicit-raw-${++agents}`, { elicitation: { form: {} } });
    const call = readRpcStream(await mcpPost(on.gateway, session, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: on.write, arguments: { text: 'raw' } } }));
    // The gateway uses up request id 0 with a ping, then asks; both on the call's own stream.
    const ping = await call.next((m) => m.method === 'ping' && m.id !== undefined);
    expect((await mcpPost(on.gateway, session, { jsonrpc: '2.0', id: ping.id, result: {} })).status).toBe(202);
    const question = await call.next((m) => m.method === 'elicitation/create' && m.id !== undefined);
    const answer = { action: 'accept', content: { decision: 'allow_once' } };
    expect((await mcpPost(on.gateway, session, { jsonrpc: '2.0', id: question.id, result: answer })).status).toBe(202);
    expect((await call.next((m) => m.id === 7)).result.isError).toBeFalsy();
    // The MCP spec: a cancellation may only reference a request still in progress.
    expect(call.messages.filter((m) => m.method === 'notifications/cancelled')).toEqual([]);
    await call.close();
  });

  it('when the admin decides first, the question in the client is withdrawn (its handler is aborted)', async () => {
    const withdrawn: boolean[] = [];
    const { client, sessionId } = await agent(on, () => new Promise(() => {}));
    // This client never answers; it only notes whether the gateway withdrew the question. The
    // gateway uses up request id 0 with a ping first: SDK clients ignore cancelling request 0.
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      withdrawn.push(false);
      extra.signal.addEventListener('abort', () => (withdrawn[0] = true));
      return new Promise(() => {});
    });
    const call = client.callTool({ name: on.write, arguments: { text: 'admin wins' } }) as Promise<any>;
    const request = (await on.events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId)).data;
    await expect.poll(() => withdrawn.length).toBe(1);
    expect((await on.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' })).status).toBe(200);
    expect((await call).isError).toBeFalsy();
    await expect.poll(() => withdrawn).toEqual([true]);
    expect((await authorizationsOf(on, sessionId)).map((a: any) => a.via)).toEqual(['admin']);
  });

  it('a client without the capability is never asked: the call waits for the admin API', async () => {
    const { client, sessionId } = await agent(on);
    const call = client.callTool({ name: on.write, arguments: { text: 'admin only' } }) as Promise<any>;
    const request = (await on.events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId)).data;
    expect((await on.api.get(`/api/sessions/${sessionId}/permission-requests`)).body.requests[0].status).toBe('pending');
    await on.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' });
    expect((await call).isError).toBeFalsy();
    expect((await authorizationsOf(on, sessionId)).map((a: any) => a.via)).toEqual(['admin']);
  });

  it('with --elicitation off, even a capable client is not asked', async () => {
    const { client, sessionId, asked } = await agent(off, choose('allow_once'));
    const call = client.callTool({ name: off.write, arguments: { text: 'config off' } }) as Promise<any>;
    const request = (await off.events.next((e) => e.type === 'permission_request.created' && e.sessionId === sessionId)).data;
    await off.api.post(`/api/permission-requests/${request.id}/decision`, { decision: 'allow_once' });
    expect((await call).isError).toBeFalsy();
    expect(asked).toEqual([]);
    expect((await authorizationsOf(off, sessionId)).map((a: any) => a.via)).toEqual(['admin']);
  });
});
