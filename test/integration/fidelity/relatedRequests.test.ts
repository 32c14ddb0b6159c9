import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { everythingStdio } from '../../fixtures/custom/everythingServer.js';
import { mcpHeaders, mcpPost, rawMcpSession, readRpcStream } from '../../fixtures/rawMcp.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

/**
 * A request an upstream server sends while handling a tool call (here server-everything's
 * elicitation) goes on the stream of the agent's tools/call, as the streamable HTTP transport says
 * it should: a client without the optional GET stream still gets it, answers it, and the call ends.
 * Without that the question went nowhere and the call waited out the upstream timeout (60 s).
 */
let gateway: TestGateway;
let api: AdminApi;
const TOOL = 'mcp__everything__trigger-elicitation-request';
/** Well under the upstream timeout: a question that went nowhere fails the test, not a 60 s wait. */
const ANSWERED_WITHIN_MS = 20_000;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  expect((await api.post('/api/mcp/servers', { name: 'everything', ...everythingStdio(), enabled: true })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await gateway?.dispose();
});

const text = (result: any) => (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
const isElicitation = (m: any) => m.method === 'elicitation/create' && m.id !== undefined;

/** A raw session that declared elicitation, allowed to call custom tools without a human. */
async function rawSession(name: string): Promise<string> {
  const id = await rawMcpSession(gateway, name, { elicitation: {} });
  await allowEverything(api, (await api.sessionOf(name)).id);
  return id;
}

describe('a raw streamable HTTP client', () => {
  it('without a GET stream: the elicitation comes on the tools/call stream, its answer completes the call', async () => {
    const session = await rawSession('raw-no-get');
    const call = readRpcStream(await mcpPost(gateway, session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: TOOL, arguments: {} } }));
    const question = await call.next(isElicitation, ANSWERED_WITHIN_MS);
    expect(question.params.message).toMatch(/^\[everything via scigate\] Please provide inputs/);
    const answered = await mcpPost(gateway, session, { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Raw Person' } } });
    expect(answered.status).toBe(202);
    const result = await call.next((m) => m.id === 2 && !('method' in m), ANSWERED_WITHIN_MS);
    expect(result.result.isError).toBeFalsy();
    expect(text(result.result)).toContain('Raw Person');
  }, 60_000);

  it('with a GET stream open: the elicitation still comes on the tools/call stream, not the GET stream', async () => {
    const session = await rawSession('raw-with-get');
    const standalone = readRpcStream(await fetch(gateway.mcpUrl, { headers: mcpHeaders(gateway, { 'mcp-session-id': session, accept: 'text/event-stream' }) }));
    const call = readRpcStream(await mcpPost(gateway, session, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: TOOL, arguments: {} } }));
    const question = await call.next(isElicitation, ANSWERED_WITHIN_MS);
    expect((await mcpPost(gateway, session, { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } })).status).toBe(202);
    const result = await call.next((m) => m.id === 3 && !('method' in m), ANSWERED_WITHIN_MS);
    expect(result.result.isError).toBeFalsy();
    expect(standalone.messages.filter(isElicitation)).toEqual([]);
    await standalone.close();
  }, 60_000);
});

/** An SDK client that declared elicitation and answers it; `withoutGet` keeps it from opening the GET stream (405, as the spec allows). */
async function sdkAgent(name: string, withoutGet: boolean): Promise<{ client: Client; asked: string[] }> {
  const transport = new StreamableHTTPClientTransport(new URL(gateway.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
    ...(withoutGet ? { fetch: (url: string | URL, init?: RequestInit) => (init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(url, init)) } : {}),
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { name: `person of ${name}` } };
  });
  await client.connect(transport);
  await client.listTools();
  await allowEverything(api, (await api.sessionOf(name)).id);
  return { client, asked };
}

describe.each([
  ['without a GET stream', true],
  ['with its GET stream', false],
])('an SDK client %s', (label, withoutGet) => {
  it('answers the elicitation of the tool it called, and the call completes', async () => {
    const name = `sdk-${withoutGet ? 'no-get' : 'get'}`;
    const { client, asked } = await sdkAgent(name, withoutGet);
    try {
      const result = (await client.callTool({ name: TOOL, arguments: {} }, undefined, { timeout: ANSWERED_WITHIN_MS })) as any;
      expect(result.isError, label).toBeFalsy();
      expect(text(result)).toContain(`person of ${name}`);
      expect(asked).toEqual([expect.stringMatching(/^\[everything via scigate\] /)]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
