import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../fixtures/freePort.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';
import { answerTo, send } from '../fixtures/rawStdio.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let upstream: DangerousHttpServer;
let cli: CliProcess | undefined;
let gateway: TestGateway | undefined;
let dir: string | undefined;
beforeAll(async () => {
  upstream = await startDangerousHttpServer();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await cli?.exited;
  await gateway?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
  cli = gateway = dir = undefined;
});

describe('scigate stdio whose client stops reading its stdout', () => {
  it('ends the session as if stdin had closed: no crash or stack trace, the waiting call audited as cancelled', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-stdio-epipe-'));
    const port = await freePort();
    cli = spawnCli(['stdio', '--data-dir', dir, '--admin-port', String(port), '--allow-private-urls']);
    const stderr: string[] = [];
    cli.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    send(cli, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stops-reading', version: '1' } } });
    send(cli, { jsonrpc: '2.0', method: 'notifications/initialized' });
    await answerTo(cli, 1);
    const token = await vi.waitFor(() => readFile(join(dir!, 'admin-token'), 'utf8'), { timeout: 60_000, interval: 20 });
    const api = adminApi({ url: `http://127.0.0.1:${port}`, token: token.trim() });
    await vi.waitFor(async () => expect((await api.get('/api/sessions')).status).toBe(200), { timeout: 60_000, interval: 20 });
    const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: upstream.url, enabled: true });
    const write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name;
    const session = await api.sessionOf('stops-reading');
    send(cli, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: write, arguments: { text: 'x' } } });
    const requests = () => api.get(`/api/sessions/${session.id}/permission-requests`).then((r) => r.body.requests);
    await vi.waitFor(async () => expect(await requests()).toMatchObject([{ status: 'pending' }]), { timeout: 60_000, interval: 20 });
    // The client closes its end of the gateway's stdout; the next answer cannot be written.
    cli.child.stdout!.destroy();
    send(cli, { jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(await cli.exited).toBe(0);
    expect(stderr.join('')).not.toMatch(/EPIPE\n\s+at |Unhandled 'error' event/);

    // The same data directory, read by a gateway of its own once the stdio process has exited.
    gateway = await startTestGateway({}, dir);
    const after = adminApi(gateway);
    expect((await after.get(`/api/sessions/${session.id}/invocations`)).body.invocations).toMatchObject([{ status: 'cancelled' }]);
    expect((await after.get(`/api/sessions/${session.id}/permission-requests`)).body.requests).toMatchObject([{ status: 'cancelled', resolvedVia: 'session_end' }]);
  }, 120_000);

  it('closed before the initialize is answered: the process ends cleanly, without a stack trace', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-stdio-epipe-'));
    cli = spawnCli(['stdio', '--data-dir', dir]);
    const stderr: string[] = [];
    cli.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    cli.child.stdout!.destroy();
    send(cli, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'never-reads', version: '1' } } });
    expect(await cli.exited).toBe(0);
    expect(stderr.join('')).not.toMatch(/EPIPE\n\s+at |Unhandled 'error' event/);
  }, 120_000);
});
