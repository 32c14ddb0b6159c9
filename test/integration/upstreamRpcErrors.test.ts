import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const rpcErrorServer = fileURLToPath(new URL('../fixtures/servers/rpcErrorServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;
let serverId: string;
let refusesInitialize: Server;

/** An HTTP MCP endpoint that answers every request (initialize included) with -32000 "bad auth". */
async function startRefusingHttp(): Promise<Server> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const id = body ? (JSON.parse(body) as { id?: unknown }).id : undefined;
    if (id === undefined) return void res.writeHead(202).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'bad auth' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  [gateway, refusesInitialize] = await Promise.all([startTestGateway(), startRefusingHttp()]);
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'Rpc errors', transport: 'stdio', command: process.execPath, args: [rpcErrorServer], enabled: true });
  expect(created.status).toBe(201);
  serverId = created.body.server.id;
});
afterAll(async () => {
  await gateway?.dispose();
  await new Promise((resolve) => refusesInitialize?.close(resolve));
});

const named = String.raw`"Rpc errors" \(custom-[0-9a-f]{12}\)`;

describe("an upstream's JSON-RPC error answer", () => {
  it('-32000 is the server\'s own upstream_error with its words, not a closed connection; each message says "MCP error" once', async () => {
    const agent = await gateway.connect({ name: 'agent-rpc-errors' });
    await allowEverything(api, (await api.sessionOf('agent-rpc-errors')).id);
    const errorOf = async (tool: string) => ((await agent.callTool({ name: `mcp__rpc-errors__${tool}`, arguments: {} })) as any).structuredContent.error;

    const quota = await errorOf('quota');
    expect(quota).toMatchObject({ code: 'upstream_error', retryable: false, details: { rpcCode: -32000 } });
    expect(quota.message).toMatch(new RegExp(`^${named} answered with an MCP error: quota exceeded for this account$`));
    expect(await errorOf('internal')).toMatchObject({ code: 'upstream_error', details: { rpcCode: -32603 }, message: expect.stringMatching(/answered with an MCP error: database offline$/) });
    expect((await errorOf('prefixed')).message).toMatch(new RegExp(`^${named} answered with an MCP error: Resource rpc://missing not found$`));
    // An answer is no lost connection: the server stays connected.
    expect((await api.get(`/api/mcp/servers/${serverId}`)).body.server.connection.state).toBe('ready');
  });

  it('a relayed resources/read is refused with the server\'s code and one "MCP error" prefix', async () => {
    const client = new Client({ name: 'rpc-relay', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    const headers = { authorization: `Bearer ${gateway.token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.mcpUrl}/sources/${serverId}`), { requestInit: { headers } }));
    await expect(client.readResource({ uri: 'rpc://gone' })).rejects.toThrow(new RegExp(`^MCP error -32602: ${named} answered with an MCP error: Resource rpc://gone not found$`));
    await client.close();
  });

  it('-32000 answering initialize is reported as the server\'s answer, in the status and in a connection test', async () => {
    const url = `http://127.0.0.1:${(refusesInitialize.address() as AddressInfo).port}/mcp`;
    const created = await api.post('/api/mcp/servers', { name: 'Refuses', transport: 'http', url, enabled: true });
    expect(created.body.server.connection).toMatchObject({ state: 'error', message: expect.stringMatching(/^"Refuses" \(custom-[0-9a-f]{12}\) answered with an MCP error: bad auth$/) });
    const tested = await api.post(`/api/mcp/servers/${created.body.server.id}/test`);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({ ok: false, message: expect.stringContaining('answered with an MCP error: bad auth') });
    expect(JSON.stringify(tested.body)).not.toMatch(/closed the connection/);
  });
});
