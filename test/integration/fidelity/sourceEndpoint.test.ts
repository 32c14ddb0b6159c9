import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';
import { sharedSchemaValidator } from '../../../gateway/core/index.js';

const fidelityServer = fileURLToPath(new URL('../../fixtures/servers/fidelityServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;
let server: any;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  server = (await api.post('/api/mcp/servers', { name: 'one source', transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true })).body.server;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await gateway?.dispose();
});

async function sourceClient(sourceId: string, name: string, token = gateway.token): Promise<Client> {
  const url = new URL(`${gateway.mcpUrl}/sources/${sourceId}`);
  const client = new Client({ name, version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

describe('/mcp/sources/<sourceId>: one source under its upstream names, governed like /mcp', () => {
  it("lists only that source's tools, under the names its server gave them", async () => {
    const client = await sourceClient(server.id, 'one-source-list');
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['add', 'count', 'fail']);
    const arxiv = await sourceClient('arxiv', 'one-source-arxiv');
    expect((await arxiv.listTools()).tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
  });

  it('calls go through the same governance: permission first, then the upstream, one audited Invocation', async () => {
    const client = await sourceClient(server.id, 'one-source-call');
    await client.listTools();
    const session = await api.sessionOf('one-source-call');
    const waiting = client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }, undefined, { timeout: 120_000 });
    // The call waits for a human, like on /mcp; the request names the governed tool.
    const pending = await vi.waitFor(
      async () => {
        const { body } = await api.get(`/api/sessions/${session.id}/permission-requests?status=pending`);
        if (!body.requests[0]) throw new Error('no pending request yet');
        return body.requests[0];
      },
      { timeout: 60_000, interval: 20 },
    );
    expect(pending.toolName).toBe('mcp__one-source__add');
    await allowEverything(api, session.id);
    const result = (await waiting) as any;
    expect(result.structuredContent).toEqual({ sum: 4 });
    const invocationId = result._meta['scigate/invocation'].invocationId;
    const row = (await api.get(`/api/sessions/${session.id}/invocations/${invocationId}`)).body;
    expect(JSON.stringify(row)).toContain(server.id);
    const unknown = (await client.callTool({ name: 'echo', arguments: {} })) as any;
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent.error.code).toBe('tool_unavailable');
  });

  it('needs the same token; an unknown source is 404; a session id only works at the endpoint that opened it', async () => {
    await expect(sourceClient(server.id, 'no-token', 'wrong')).rejects.toThrow();
    const response = await fetch(`${gateway.mcpUrl}/sources/custom-000000000000`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.json())).toContain('GET /api/catalog/sources');
    const client = await sourceClient(server.id, 'one-source-cross');
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const crossed = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(crossed.status).toBe(404);
  });
});
