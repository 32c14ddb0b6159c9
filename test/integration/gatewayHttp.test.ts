import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let provider: ReplayServer;
let gateway: TestGateway;

beforeAll(async () => {
  provider = await startReplayServer(arxivReplay);
  gateway = await startTestGateway({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api` });
});
afterAll(async () => {
  await gateway.dispose();
  await provider.close();
});

describe('the gateway over streamable HTTP', () => {
  it('lists the governed arXiv tools with input and output schemas', async () => {
    const client = await gateway.connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('mcp__arxiv__search');
    expect(names).toContain('mcp__arxiv__get');
    const search = tools.find((t) => t.name === 'mcp__arxiv__search')!;
    expect(search.inputSchema.properties).toHaveProperty('query');
    expect(search.outputSchema).toBeDefined();
  });

  it('returns records from the provider with an invocationId, stored as one invocation', async () => {
    const client = await gateway.connect({ project: 'cancer-review' });
    const result = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.records).toHaveLength(10);
    expect(result.structuredContent.untrusted).toBe(true);
    const invocationId = result.structuredContent.invocationId;
    expect(invocationId).toMatch(/^inv_/);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);

    const sessions = await api('/api/sessions');
    const session = sessions.sessions.find((s: any) => s.projectId === 'cancer-review');
    expect(session).toMatchObject({ clientName: 'test-agent', clientVersion: '1.2.3', approvalMode: 'ask_for_dangerous', transport: 'http' });
    const detail = await api(`/api/sessions/${session.id}/invocations/${invocationId}`);
    expect(detail.invocation).toMatchObject({ status: 'ok', sourceId: 'arxiv', toolId: 'search', attempts: 1 });
    expect(detail.result.records).toHaveLength(10);
    expect(detail.arguments).toEqual({ query: 'testing' });
  });

  it('invalid arguments give invalid_input naming the field, and the invocation is stored', async () => {
    const client = await gateway.connect();
    const result = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 42 } })) as any;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'invalid_input', retryable: false, attempts: 0 });
    expect(result.structuredContent.error.message).toContain('query');
    const sessions = await api('/api/sessions');
    const list = await Promise.all(sessions.sessions.map((s: any) => api(`/api/sessions/${s.id}/invocations`)));
    const stored = list.flatMap((l) => l.invocations).find((i: any) => i.id === result.structuredContent.invocationId);
    expect(stored).toMatchObject({ status: 'error', errorCode: 'invalid_input' });
  });

  it('a misspelled field and arguments nested absurdly deep are invalid_input, audited, never a crash', async () => {
    const client = await gateway.connect();
    const misspelled = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'x', max_results: 5 } })) as any;
    expect(misspelled.structuredContent.error).toMatchObject({ code: 'invalid_input' });
    expect(misspelled.structuredContent.error.message).toContain('max_results');

    const depth = 5000;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mcp__arxiv__search","arguments":{"query":"x","deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`;
    const transport = client.transport as unknown as { sessionId: string };
    const response = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body,
    });
    const text = await response.text();
    expect(text).toContain('invalid_input');
    expect(text).toContain('64 levels');
    const invocationId = /"invocationId":"(inv_[0-9a-f]+)"/.exec(text.replaceAll('\\', ''))![1];
    const sessions = await api('/api/sessions');
    const session = sessions.sessions.find((s: any) => s.id === transport.sessionId);
    const detail = await api(`/api/sessions/${session.id}/invocations/${invocationId}`);
    expect(detail.invocation).toMatchObject({ status: 'error', errorCode: 'invalid_input' });
    expect(detail.arguments.refused).toContain('64 levels');
  });

  it('an unknown tool is a structured tool_unavailable error', async () => {
    const client = await gateway.connect();
    const result = (await client.callTool({ name: 'mcp__nope__search', arguments: {} })) as any;
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe('tool_unavailable');
  });
});

describe('the admin API', () => {
  it('answers an unknown route with a JSON 404 naming the whole path and where the routes are listed', async () => {
    const response = await fetch(`${gateway.url}/api/custom-servers?x=1`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(response.status).toBe(404);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('not_found');
    expect(error.message).toMatch(/^No route GET \/api\/custom-servers\. /);
    expect(error.message).toContain('README');
  });

  it('answers a known path asked with the wrong method with a JSON 405 and Allow, naming the methods it takes', async () => {
    const auth = { authorization: `Bearer ${gateway.token}` };
    const wrong = await fetch(`${gateway.url}/api/sessions`, { method: 'DELETE', headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(((await wrong.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'method_not_allowed', message: '/api/sessions does not take DELETE; it takes GET, HEAD.',
    });
    // A path with a parameter, in a router mounted inside the API's.
    const put = await fetch(`${gateway.url}/api/sessions/ses_any`, { method: 'PUT', headers: auth });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('PATCH');
    // A path a parameter route would read as an id: the import route takes POST only.
    const listImport = await fetch(`${gateway.url}/api/mcp/servers/import`, { headers: auth });
    expect(listImport.status).toBe(405);
    expect(listImport.headers.get('allow')).toBe('POST');
    expect(((await listImport.json()) as { error: { message: string } }).error.message).toBe('/api/mcp/servers/import does not take GET; it takes POST.');
    // Outside /api too; an unknown path stays a 404.
    expect((await fetch(`${gateway.url}/healthz`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${gateway.url}/api/nothing-here`, { method: 'PUT', headers: auth })).status).toBe(404);
  });

  it('refuses an event stream for a Session that does not exist, instead of one that never speaks', async () => {
    const response = await fetch(`${gateway.url}/api/events?sessionId=ses_mistyped`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'not_found', message: expect.stringContaining('GET /api/sessions') });
  });

  it("answers a URL over Node's 16 KiB and a body over the route's limit in the JSON error shape, saying the limit", async () => {
    const longUrl = await fetch(`${gateway.url}/api/sessions?q=${'x'.repeat(20_000)}`, { headers: { authorization: `Bearer ${gateway.token}` } });
    expect(longUrl.status).toBe(431);
    expect(((await longUrl.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'request_too_large', message: expect.stringContaining('shorter URL') });
    const large = await fetch(`${gateway.url}/api/projects`, {
      method: 'POST', body: JSON.stringify({ id: 'p', name: 'x'.repeat(2 * 1024 * 1024) }), headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
    });
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'request_too_large', message: expect.stringContaining('(1048576 bytes)'),
    });
  });

  it('refuses a body of null as a bare value (valid JSON, but no object), with a 400', async () => {
    const response = await fetch(`${gateway.url}/api/projects`, {
      method: 'POST', body: 'null', headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('bare value');
  });
});

async function api(path: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${gateway.token}` } });
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
}
