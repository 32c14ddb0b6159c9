import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { mcpHeaders, mcpPost, rawMcpSession } from '../fixtures/rawMcp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

const fidelityServer = fileURLToPath(new URL('../fixtures/servers/fidelityServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'Answers', transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await gateway?.dispose();
});

/** An SDK client whose fetch records the Content-Type of each answer to a tools/call. */
async function recordingClient(name: string): Promise<{ client: Client; callAnswerTypes: string[] }> {
  const callAnswerTypes: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(gateway.mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
    fetch: async (url, init) => {
      const answer = await fetch(url, init);
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) callAnswerTypes.push(answer.headers.get('content-type') ?? '');
      return answer;
    },
  });
  const client = new Client({ name, version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
  await client.connect(transport);
  const session = await api.sessionOf(name);
  expect((await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' })).status).toBe(200);
  return { client, callAnswerTypes };
}

const headers = (extra: Record<string, string> = {}) => mcpHeaders(gateway, extra);
const rawSession = () => rawMcpSession(gateway, 'raw');

/** A JSON-RPC error answer. */
type RpcError = { jsonrpc: string; id: null; error: { code: number; message: string } };

const post = (sessionId: string, body: unknown, extra: Record<string, string> = {}) => mcpPost(gateway, sessionId, body, extra);

describe('the Node streamable HTTP transport', () => {
  it('answers a plain tool call as application/json, and the SDK client reads it (outputSchema checked)', async () => {
    const { client, callAnswerTypes } = await recordingClient('json-answer');
    // The first call to a server just added may outlast the 100 ms headers hold (its connection,
    // its outputSchema's validator compiled on a busy machine): answered as SSE then, as it should.
    // The call after it shows what a plain call gets.
    await client.callTool({ name: 'mcp__answers__add', arguments: { a: 1, b: 1 } });
    callAnswerTypes.length = 0;
    const result = await client.callTool({ name: 'mcp__answers__add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(callAnswerTypes).toEqual(['application/json']);
    await client.close();
  });

  it('answers a call that reports progress as SSE, every progress before the result', async () => {
    const { client, callAnswerTypes } = await recordingClient('sse-answer');
    const seen: string[] = [];
    const result = await client.callTool({ name: 'mcp__answers__count', arguments: {} }, undefined, {
      onprogress: (p) => void seen.push(`progress ${p.progress}`),
      timeout: 60_000,
    });
    seen.push('result');
    expect(result.content).toContainEqual({ type: 'text', text: 'counted' });
    expect(seen).toEqual(['progress 0', 'progress 1', 'progress 2', 'result']);
    expect(callAnswerTypes).toEqual(['text/event-stream']);
    await client.close();
  });

  it('answers a batch of two requests as one SSE stream carrying both responses', async () => {
    const session = await rawSession();
    const answer = await post(session, [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const events = (await answer.text()).split('\n\n').filter((e) => e.startsWith('event: message'));
    const messages = events.map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)));
    expect(messages.map((m) => m.id).sort()).toEqual(['a', 'b']);
    expect(messages.find((m) => m.id === 'b').result.tools.length).toBeGreaterThan(0);
  });

  it('accepts a notification with 202 and no body', async () => {
    const session = await rawSession();
    const answer = await post(session, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(answer.status).toBe(202);
    expect(await answer.text()).toBe('');
  });

  it('opens one standalone GET stream per session: a second is 409, and one the client left is forgotten', async () => {
    const session = await rawSession();
    const get = (signal?: AbortSignal) =>
      fetch(gateway.mcpUrl, { headers: { ...headers({ 'mcp-session-id': session }), accept: 'text/event-stream' }, ...(signal ? { signal } : {}) });
    const first = new AbortController();
    const stream = await get(first.signal);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('mcp-session-id')).toBe(session);
    const second = await get();
    expect(second.status).toBe(409);
    expect(((await second.json()) as RpcError).error.message).toMatch(/Only one SSE stream/);
    first.abort();
    const third = await vi.waitFor(
      async () => {
        const answer = await get(AbortSignal.timeout(60_000));
        if (answer.status !== 200) throw new Error(`still ${answer.status}`);
        return answer;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(third.headers.get('content-type')).toBe('text/event-stream');
    await third.body?.cancel();
  });

  it('closes the session on DELETE: the next request is 404', async () => {
    const session = await rawSession();
    const closed = await fetch(gateway.mcpUrl, { method: 'DELETE', headers: headers({ 'mcp-session-id': session }) });
    expect(closed.status).toBe(200);
    const after = await post(session, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(after.status).toBe(404);
    expect(((await after.json()) as RpcError).error.code).toBe(-32001);
  });

  it('refuses an unknown session (404), a wrong Accept (406), a non-JSON Content-Type (415), an unknown protocol version (400) and PUT (405)', async () => {
    const unknown = await post('ses_nope', { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(unknown.status).toBe(404);
    const session = await rawSession();
    const refusals: Array<[Response, number, RegExp]> = [
      [await post(session, { jsonrpc: '2.0', id: 3, method: 'ping' }, { accept: 'application/json' }), 406, /Not Acceptable/],
      [await fetch(gateway.mcpUrl, { headers: { ...headers({ 'mcp-session-id': session }), accept: 'application/json' } }), 406, /text\/event-stream/],
      [await post(session, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'content-type': 'application/vnd.api+json' }), 415, /Content-Type/],
      [await post(session, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' }), 400, /Unsupported protocol version/],
      [await fetch(gateway.mcpUrl, { method: 'PUT', headers: headers({ 'mcp-session-id': session }), body: '{}' }), 405, /Method not allowed/],
    ];
    for (const [answer, status, words] of refusals) {
      expect(answer.status).toBe(status);
      const body = (await answer.json()) as RpcError;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null });
      expect(body.error.message).toMatch(words);
    }
    // An initialize inside a batch is refused as such, not as a request without a session.
    const batched = await fetch(gateway.mcpUrl, {
      method: 'POST', headers: headers(),
      body: JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }, { jsonrpc: '2.0', id: 8, method: 'ping' }]),
    });
    expect(batched.status).toBe(400);
    expect(((await batched.json()) as RpcError).error).toMatchObject({ code: -32600, message: expect.stringContaining('initialize must be sent on its own') });
    const again = await post(session, { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as RpcError).error.message).toMatch(/already initialized; send requests with this Mcp-Session-Id, or initialize a new session/);
    // An empty body is no JSON: -32700, as the SDK's transport answers it.
    const empty = await fetch(gateway.mcpUrl, { method: 'POST', headers: headers({ 'mcp-session-id': session }) });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as RpcError).error).toMatchObject({ code: -32700, message: expect.stringMatching(/^Parse error: the request has no body/) });
    // The session survives its refused requests.
    // (As JSON, or as an event stream if this machine stalled past the headers hold.)
    const ping = await post(session, { jsonrpc: '2.0', id: 6, method: 'ping' });
    const text = await ping.text();
    const answer: unknown = JSON.parse(ping.headers.get('content-type') === 'text/event-stream' ? /^data: (.*)$/m.exec(text)![1]! : text);
    expect(answer).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
  });

  it('refuses notifications/initialized sent with an id, saying to drop the id; without one the handshake completes', async () => {
    const init = await fetch(gateway.mcpUrl, {
      method: 'POST', headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ids-notifications', version: '1' } } }),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    const withId = await post(session, { jsonrpc: '2.0', id: 2, method: 'notifications/initialized' });
    expect(withId.status).toBe(400);
    expect(await withId.json()).toEqual({
      jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid request: notifications/initialized is a notification; send it without an id (nothing answers a notification).' },
    });
    expect((await post(session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const tools = await post(session, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(await tools.text()).toContain('"tools"');
  });
});
