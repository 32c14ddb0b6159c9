import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { mcpPost, rawMcpSession, readRpcStream } from '../fixtures/rawMcp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;
let echo: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'echoes', ...everythingStdio(), enabled: true });
  expect(created.status).toBe(201);
  echo = created.body.server.tools.find((t: { upstreamName: string }) => t.upstreamName === 'echo').name;
}, 120_000);
afterAll(async () => {
  await gateway?.dispose();
});

/** A call of the echo tool with JSON-RPC id `id`; the Session asks for dangerous calls, so it waits for a decision. */
const echoCall = (id: number, message: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: echo, arguments: { message } } });

/** The permission requests still pending in the Session the raw client `clientName` opened. */
async function pendingOf(clientName: string): Promise<Array<{ id: string }>> {
  const session = await api.sessionOf(clientName);
  const { body } = await api.get(`/api/sessions/${session.id}/permission-requests`);
  return body.requests.filter((r: { status: string }) => r.status === 'pending');
}

/** Waits until the Session has `count` pending permission requests, and returns them. */
const pending = (clientName: string, count: number) =>
  vi.waitFor(
    async () => {
      const requests = await pendingOf(clientName);
      if (requests.length !== count) throw new Error(`${requests.length} pending, not ${count}`);
      return requests;
    },
    { timeout: 60_000, interval: 20 },
  );

describe('a request id already in flight in the session', () => {
  it('is refused on a second POST, and the first request still gets its own answer', async () => {
    const session = await rawMcpSession(gateway, 'reuses-ids');
    const first = readRpcStream(await mcpPost(gateway, session, echoCall(7, 'first')));
    const [request] = await pending('reuses-ids', 1);
    const again = await mcpPost(gateway, session, echoCall(7, 'second'));
    expect(again.status).toBe(400);
    const refusal = (await again.json()) as { id: unknown; error: { code: number; message: string } };
    expect(refusal).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(refusal.error.message).toMatch(/id 7 .*still running.*new id/);
    // The refused call never started: no second question for a human.
    expect(await pendingOf('reuses-ids')).toHaveLength(1);
    expect((await api.post(`/api/permission-requests/${request!.id}/decision`, { decision: 'allow_once' })).status).toBe(200);
    const answer = await first.next((m) => m.id === 7);
    expect(JSON.stringify(answer.result.content)).toContain('first');
    // Answered, the id is free again.
    const reused = await mcpPost(gateway, session, { jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(reused.status).toBe(200);
  }, 120_000);

  it('is refused in a batch that names it twice, before either request runs', async () => {
    const session = await rawMcpSession(gateway, 'batch-reuses-ids');
    const answer = await mcpPost(gateway, session, [echoCall(3, 'one'), echoCall(3, 'two')]);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/id 3 /);
    expect(await pendingOf('batch-reuses-ids')).toHaveLength(0);
  }, 120_000);
});
