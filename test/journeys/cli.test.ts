import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { CLI, REPO_ROOT, childPids, isAlive, spawnCli, spawnProcess, waitUntil, type CliProcess } from '../fixtures/cliProcess.js';

let provider: ReplayServer;
let dataDir: string;
let running: CliProcess | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  provider = await startReplayServer(arxivReplay);
});
afterAll(async () => {
  await provider.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  if (running?.child.pid && running.child.exitCode === null) {
    process.kill(-running.child.pid, 'SIGKILL');
    await running.exited;
  }
  running = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const arxivEnv = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`, SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}' });

async function freshDataDir(): Promise<string> {
  dataDir = await mkdtemp(join(tmpdir(), 'scigate-cli-'));
  return join(dataDir, 'data');
}

async function httpClient(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'journey', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

async function searchArxiv(client: Client) {
  const result = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as any;
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent.records[0].url).toBe('https://arxiv.org/abs/2202.12139v1');
  return result;
}

describe('scigate from the command line', () => {
  it('npm start runs the gateway, prints the MCP URL and token file; an SDK client gets arXiv records', async () => {
    const dir = await freshDataDir();
    running = spawnProcess('npm', ['start', '--silent', '--', '--port', '0', '--data-dir', dir], arxivEnv());
    const [, mcpUrl] = await running.waitFor(/MCP endpoint: (\S+)/);
    const [, tokenPath] = await running.waitFor(/Token file:\s+(\S+)/);
    expect(tokenPath).toBe(join(dir, 'admin-token'));
    expect((await stat(tokenPath!)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const token = (await readFile(tokenPath!, 'utf8')).trim();
    const client = await httpClient(mcpUrl!, token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp__arxiv__get');
    await searchArxiv(client);
  });

  it('scigate stdio serves one MCP session over stdin/stdout', async () => {
    const dir = await freshDataDir();
    const client = new Client({ name: 'stdio-journey', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'stdio', '--data-dir', dir], env: { ...arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' }, cwd: REPO_ROOT, stderr: 'pipe' }),
    );
    clients.push(client);
    const result = await searchArxiv(client);
    expect(result.structuredContent.invocationId).toMatch(/^inv_/);
  });

  it('scigate stdio --admin-port keeps the admin API reachable for the stdio session', async () => {
    const dir = await freshDataDir();
    const port = await freePort();
    const client = new Client({ name: 'stdio-admin', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'stdio', '--data-dir', dir, '--admin-port', String(port), '--project', 'grant-42'],
      env: { ...arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' },
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    await searchArxiv(client);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const response = await fetch(`http://127.0.0.1:${port}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });
    const { sessions } = (await response.json()) as any;
    expect(sessions[0]).toMatchObject({ transport: 'stdio', projectId: 'grant-42', clientName: 'stdio-admin' });
  });

  it('logs are JSON lines on stderr, one per request and per call, with ids and never the token', async () => {
    const dir = await freshDataDir();
    running = spawnCli(['serve', '--port', '0', '--data-dir', dir], { ...arxivEnv(), SCIGATE_LOG_LEVEL: 'info' });
    const [, mcpUrl] = await running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const result = await searchArxiv(await httpClient(mcpUrl!, token));
    await fetch(mcpUrl!, { method: 'POST', headers: { authorization: 'Bearer wrong-token-value' } });
    await running.waitFor(/"status":401/);
    const lines = running.output().split('\n').filter((l) => l.startsWith('{'));
    const entries = lines.map((l) => JSON.parse(l));
    const call = entries.find((e) => e.msg === 'tool call');
    expect(call).toMatchObject({ invocationId: result.structuredContent.invocationId, tool: 'mcp__arxiv__search', status: 'ok' });
    expect(call.sessionId).toMatch(/^ses_/);
    expect(entries.some((e) => e.msg === 'http request' && e.path === '/mcp' && e.status === 200)).toBe(true);
    expect(running.output()).not.toContain(token);
    expect(running.output()).not.toContain('wrong-token-value');
  });

  it('scigate source arxiv is a plain MCP server any client can use without the gateway', async () => {
    const client = new Client({ name: 'source-journey', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'source', 'arxiv'], env: { ...arxivEnv(), SCIGATE_LOG_LEVEL: 'warn', PATH: process.env.PATH ?? '' }, cwd: REPO_ROOT, stderr: 'pipe' }),
    );
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const result = (await client.callTool({ name: 'get', arguments: { ids: ['2104.12255v1'] } })) as any;
    expect(result.structuredContent.records[0].sourceRecordId).toBe('2104.12255v1');
  });

  it('kill -9 right after a call returns loses neither the invocation nor its CAS object', async () => {
    const dir = await freshDataDir();
    running = spawnCli(['serve', '--port', '0', '--data-dir', dir], arxivEnv());
    const [, mcpUrl] = await running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const result = await searchArxiv(await httpClient(mcpUrl!, token));
    process.kill(running.child.pid!, 'SIGKILL');
    await running.exited;

    running = spawnCli(['serve', '--port', '0', '--data-dir', dir], arxivEnv());
    const [, url] = await running.waitFor(/Admin API:\s+(\S+)\/api/);
    const headers = { authorization: `Bearer ${token}` };
    const { sessions } = (await (await fetch(`${url}/api/sessions`, { headers })).json()) as any;
    expect(sessions).toHaveLength(1);
    const detail = (await (await fetch(`${url}/api/sessions/${sessions[0].id}/invocations/${result.structuredContent.invocationId}`, { headers })).json()) as any;
    expect(detail.invocation.status).toBe('ok');
    const { invocationId: _id, ...normalized } = result.structuredContent;
    expect(detail.result).toEqual(normalized);
    const blob = join(dir, 'cas', 'sha256', detail.invocation.casHash.slice(0, 2), detail.invocation.casHash);
    expect((await stat(blob)).mode & 0o777).toBe(0o600);
  });

  it('with --isolate-sources, stopping the gateway leaves none of its source processes alive', async () => {
    const dir = await freshDataDir();
    running = spawnCli(['serve', '--port', '0', '--data-dir', dir, '--isolate-sources'], arxivEnv());
    const [, mcpUrl] = await running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    await searchArxiv(await httpClient(mcpUrl!, token));
    const children = childPids(running.child.pid!);
    expect(children.length).toBeGreaterThan(0);
    process.kill(running.child.pid!, 'SIGTERM');
    expect(await running.exited).toBe(0);
    expect(await waitUntil(() => children.every((pid) => !isAlive(pid)))).toBe(true);
  });

  it('a bad flag and a port in use each give one clear line naming the flag, and exit code 2', async () => {
    const bad = spawnCli(['serve', '--prot', '1']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('--prot');
    expect(bad.output()).toContain('scigate serve --help');

    const badEnv = spawnCli(['serve'], { SCIGATE_PORT: 'eighty' });
    expect(await badEnv.exited).toBe(2);
    expect(badEnv.output()).toContain('SCIGATE_PORT');

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const dir = await freshDataDir();
    const busy = spawnCli(['serve', '--port', String(port), '--data-dir', dir]);
    expect(await busy.exited).toBe(2);
    expect(busy.output()).toContain(`Port ${port}`);
    expect(busy.output()).toContain('--port');
    expect(busy.output().trim().split('\n')).toHaveLength(1);
    blocker.close();
  });

  it('scigate token prints the token; --rotate replaces it', async () => {
    const dir = await freshDataDir();
    const first = spawnCli(['token', '--data-dir', dir]);
    expect(await first.exited).toBe(0);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    expect(first.output()).toContain(token);
    const rotated = spawnCli(['token', '--data-dir', dir, '--rotate']);
    expect(await rotated.exited).toBe(0);
    expect((await readFile(join(dir, 'admin-token'), 'utf8')).trim()).not.toBe(token);
  });
});
