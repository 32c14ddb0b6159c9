import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { serveStatelessMcpHttp, type StatelessMcpHttp } from '../fixtures/servers/statelessMcpHttp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const echoServer = fileURLToPath(new URL('../fixtures/servers/secretEchoServer.mjs', import.meta.url));

// Each secret is planted in halves that are distinctive on their own, so a value logged in part is found too.
const ENV_HEAD = 'envHEAD7q2w';
const ENV_TAIL = 'envTAIL9x4z';
const REF_VALUE = 'refVALUE-8h3j6k2l';
const HEADER_TOKEN = 'hdrTOKEN-5k8m3n1p';
const QUERY_KEY = 'qryKEY-2v6b9c4x';
const PLANTED = [ENV_HEAD, ENV_TAIL, REF_VALUE, REF_VALUE.slice(0, 8), REF_VALUE.slice(8), HEADER_TOKEN, HEADER_TOKEN.slice(0, 8), QUERY_KEY];

let gateway: TestGateway;
let api: AdminApi;
const log = captureLogger();
let echoing: StatelessMcpHttp;
let rejecting: Server;
const texts: string[] = [];

/** An HTTP upstream that refuses every request, quoting the credentials it was sent. */
async function startRejectingServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'text/plain' }).end(`unauthorized: ${req.headers.authorization} for ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

/** An HTTP upstream whose one tool fails, quoting its request's credentials. */
function startEchoingServer(): Promise<StatelessMcpHttp> {
  return serveStatelessMcpHttp((req) => {
    const mcp = new McpServer({ name: 'http-echo', version: '1.0.0' });
    mcp.registerTool('leak', { description: 'Echoes its credentials', inputSchema: {} }, async () => ({
      isError: true,
      content: [{ type: 'text', text: `refused ${req.headers.authorization} on ${req.url}` }],
    }));
    return mcp;
  });
}

async function collect(promise: Promise<{ text: string }>): Promise<any> {
  const response = await promise;
  texts.push(response.text);
  return JSON.parse(response.text);
}

/** Every file the gateway stored (CAS blobs, database, journal), as text. */
async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (file) => `${file}\n${(await readFile(file)).toString('latin1')}`));
}

beforeAll(async () => {
  echoing = await startEchoingServer();
  const rejected = await startRejectingServer();
  rejecting = rejected.server;
  gateway = await startTestGateway({ SECRET_REF: REF_VALUE }, undefined, { log });
  api = adminApi(gateway);
  const stdio = { transport: 'stdio', command: process.execPath, enabled: true };
  const bearer = [{ key: 'Authorization', value: `Bearer ${HEADER_TOKEN}` }];
  for (const body of [
    { name: 'echo', ...stdio, args: [echoServer], env: [{ key: 'ECHO_SECRET', value: `${ENV_HEAD}${ENV_TAIL}` }] },
    { name: 'failing list', ...stdio, args: [echoServer, '--fail-list'], env: [{ key: 'ECHO_SECRET', value: '$SECRET_REF' }] },
    { name: 'http echo', transport: 'http', enabled: true, url: `${echoing.url}?api_key=${QUERY_KEY}`, headers: bearer },
    { name: 'rejecting', transport: 'http', enabled: true, url: `${rejected.url}?access_token=${QUERY_KEY}`, headers: bearer },
  ]) {
    await collect(api.post('/api/mcp/servers', body));
  }
});
afterAll(async () => {
  await gateway?.dispose();
  await echoing?.close();
  rejecting?.closeAllConnections();
  await new Promise((resolve) => rejecting?.close(resolve));
});

describe('planted secrets echoed back by upstreams', () => {
  it('appear in no admin answer, tool error, log line or stored file, but are visibly redacted', async () => {
    const { servers } = await collect(api.get('/api/mcp/servers'));
    const byName = (name: string) => servers.find((s: any) => s.name === name);
    const tests = await Promise.all(servers.map((s: any) => collect(api.post(`/api/mcp/servers/${s.id}/test`))));
    for (const server of servers) {
      await collect(api.get(`/api/mcp/servers/${server.id}`));
      await collect(api.get(`/api/catalog/sources/${server.id}`));
      await collect(api.get(`/api/catalog/sources/${server.id}/status`));
    }
    await collect(api.get('/api/catalog/sources'));

    const agent = await gateway.connect({ name: 'agent-secrets' });
    const session = await api.sessionOf('agent-secrets');
    await allowEverything(api, session.id);
    const toolName = (name: string) => byName(name).tools.find((t: any) => t.upstreamName === 'leak').name;
    const calls = [
      [toolName('echo'), { how: 'result' }], [toolName('echo'), { how: 'throw' }], [toolName('http echo'), {}],
    ] as const;
    const results = [];
    for (const [name, args] of calls) results.push(await agent.callTool({ name, arguments: args }));
    texts.push(...results.map((r) => JSON.stringify(r)));
    const inspected = await collect(api.post(`/api/mcp/servers/${byName('echo').id}/inspect`, { sessionId: session.id, toolId: 'leak', arguments: { how: 'throw' } }));
    texts.push(...(await collect(api.get(`/api/sessions/${session.id}/invocations`))).invocations.map((i: any) => JSON.stringify(i)));

    // The upstreams did echo the values back, and each exit shows the mask where they were.
    expect(results.map((r) => r.isError)).toEqual([true, true, true]);
    // A custom tool's own error result passes through as sent, scrubbed; scigate's errors carry it in structuredContent.
    for (const result of results) expect(JSON.stringify(result)).toContain('[redacted]');
    expect(inspected.error.message).toContain('[redacted]');
    expect(byName('failing list').connection.message).toContain('[redacted]');
    expect(byName('rejecting').connection.message).toContain('[redacted]');
    expect(tests.filter((t) => !t.ok).map((t) => JSON.stringify(t.checks))).toHaveLength(2);
    for (const failed of tests.filter((t) => !t.ok)) expect(JSON.stringify(failed.checks)).toContain('[redacted]');
    await vi.waitFor(() => expect(log.lines.some((l) => l.includes('is my secret'))).toBe(true), { timeout: 60_000, interval: 50 });
    expect(log.lines.some((l) => l.includes('discovery failed') && l.includes('[redacted]'))).toBe(true);

    const stored = await storedFiles(gateway.dataDir);
    expect(stored.length).toBeGreaterThan(3);
    const everything = { responses: texts, logs: log.lines, stored };
    for (const [exit, lines] of Object.entries(everything)) {
      const leaks = lines.filter((line) => PLANTED.some((secret) => line.includes(secret)));
      expect({ exit, leaks: leaks.map((l) => l.slice(0, 400)) }).toEqual({ exit, leaks: [] });
    }
  });
});
