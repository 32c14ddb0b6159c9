import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, REPO_ROOT } from '../fixtures/cliProcess.js';
import { freePort } from '../fixtures/freePort.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { mcpHeaders, mcpPost, rawMcpSession, readRpcStream } from '../fixtures/rawMcp.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let upstream: DangerousHttpServer;
let gateway: TestGateway | undefined;
beforeAll(async () => {
  upstream = await startDangerousHttpServer();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  await gateway?.dispose();
  gateway = undefined;
});

/** A gateway with the dangerous server, and a raw session whose tools/call waits for a human. */
async function callWaitingForApproval(g: TestGateway, api: AdminApi) {
  const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
  const write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name;
  const session = await rawMcpSession(g, 'waiting-agent');
  const answer = readRpcStream(await mcpPost(g, session, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: write, arguments: { text: 'x' } } }));
  const requests = () => api.get(`/api/sessions/${session}/permission-requests`).then((r) => r.body.requests);
  await vi.waitFor(async () => expect(await requests()).toMatchObject([{ status: 'pending' }]), { timeout: 60_000, interval: 20 });
  return { session, answer, requests };
}

describe('a session that ends while its tool call waits for approval', () => {
  it('closed by its client (DELETE): the call is answered with why, and the request ends as the session ended, not as a client cancel', async () => {
    gateway = await startTestGateway();
    const api = adminApi(gateway);
    const { session, answer, requests } = await callWaitingForApproval(gateway, api);
    const deleted = await fetch(gateway.mcpUrl, { method: 'DELETE', headers: mcpHeaders(gateway, { 'mcp-session-id': session }) });
    expect(deleted.status).toBe(200);
    expect(await answer.next((m) => m.id === 7)).toMatchObject({ error: { message: 'The session was closed (DELETE) while this request ran; it was cancelled.' } });
    expect(await requests()).toMatchObject([{ status: 'cancelled', resolvedVia: 'session_end' }]);
    await vi.waitFor(async () => expect((await api.get(`/api/sessions/${session}/invocations`)).body.invocations).toMatchObject([{ status: 'cancelled' }]), { timeout: 60_000 });
  });

  it('scigate stdio whose client goes away (stdin closed): the request ends as the session ended, not as a client cancel', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scigate-stdio-approval-'));
    const port = await freePort();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'stdio', '--data-dir', dir, '--admin-port', String(port), '--allow-private-urls'],
      env: { SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' },
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-waiting-agent', version: '1.0.0' });
    await client.connect(transport);
    // The admin API (and its token) comes up with the runtime, after the handshake.
    const token = await vi.waitFor(() => readFile(join(dir, 'admin-token'), 'utf8'), { timeout: 60_000, interval: 20 });
    const api = adminApi({ url: `http://127.0.0.1:${port}`, token: token.trim() });
    await vi.waitFor(async () => expect((await api.get('/api/sessions')).status).toBe(200), { timeout: 60_000, interval: 20 });
    const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
    const write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name;
    const session = await api.sessionOf('stdio-waiting-agent');
    const call = client.callTool({ name: write, arguments: { text: 'x' } }).catch((error: unknown) => error);
    const requests = () => api.get(`/api/sessions/${session.id}/permission-requests`).then((r) => r.body.requests);
    await vi.waitFor(async () => expect(await requests()).toMatchObject([{ status: 'pending' }]), { timeout: 60_000, interval: 20 });
    await client.close();
    await call;

    // The same data directory, read by a gateway of its own once the stdio process has exited.
    gateway = await startTestGateway({}, dir);
    const after = adminApi(gateway);
    expect((await after.get(`/api/sessions/${session.id}/permission-requests`)).body.requests).toMatchObject([{ status: 'cancelled', resolvedVia: 'session_end' }]);
    expect((await after.get(`/api/sessions/${session.id}/invocations`)).body.invocations).toMatchObject([{ status: 'cancelled' }]);
  });

  it('the gateway stops (SIGTERM): the call is answered that it stopped, and its audit row is written before storage closes', async () => {
    const log = captureLogger();
    gateway = await startTestGateway({}, undefined, { log });
    const api = adminApi(gateway);
    const { session, answer } = await callWaitingForApproval(gateway, api);
    await gateway.stop();
    expect(await answer.next((m) => m.id === 7)).toMatchObject({ error: { message: expect.stringMatching(/^scigate is stopping: this request was cancelled/) } });
    // No "could not record how a tool call ended": the stop waited for the cancelled call's row.
    expect(log.lines.filter((line) => line.includes('could not record'))).toEqual([]);

    // The same data directory again (afterEach disposes of it with this gateway).
    gateway = await startTestGateway({}, gateway.dataDir);
    const after = adminApi(gateway);
    expect((await after.get(`/api/sessions/${session}/invocations`)).body.invocations).toMatchObject([{ status: 'cancelled', errorCode: 'cancelled' }]);
    expect((await after.get(`/api/sessions/${session}/permission-requests`)).body.requests).toMatchObject([{ status: 'cancelled', resolvedVia: 'session_end' }]);
  });
});
