import { describe, expect, it } from 'vitest';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawnCli, spawnProcess } from '../fixtures/cliProcess.js';
import { useCliJourney } from '../fixtures/cliJourney.js';

const j = useCliJourney();

describe('scigate serve and token from the command line', () => {
  it('npm start runs the gateway, prints the MCP URL and token file; an SDK client gets arXiv records', async () => {
    const dir = await j.freshDataDir();
    j.running = spawnProcess('npm', ['start', '--silent', '--', '--port', '0', '--data-dir', dir], j.arxivEnv());
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    const [, tokenPath] = await j.running.waitFor(/Token file:\s+(\S+)/);
    expect(tokenPath).toBe(join(dir, 'admin-token'));
    expect((await stat(tokenPath!)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const token = (await readFile(tokenPath!, 'utf8')).trim();
    const client = await j.httpClient(mcpUrl!, token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp__arxiv__get');
    await j.searchArxiv(client);
  });

  it('logs are JSON lines on stderr, at debug one per request and per call, with ids and never the token', async () => {
    const dir = await j.freshDataDir();
    // At info a healthy call writes no line (test/unit/listener/requestLog.test.ts); debug asks for them.
    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir], { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'debug' });
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    const result = await j.searchArxiv(await j.httpClient(mcpUrl!, token));
    await fetch(mcpUrl!, { method: 'POST', headers: { authorization: 'Bearer wrong-token-value' } });
    await j.running.waitFor(/"status":401/);
    const lines = j.running.output().split('\n').filter((l) => l.startsWith('{'));
    const entries = lines.map((l) => JSON.parse(l));
    const call = entries.find((e) => e.msg === 'tool call');
    expect(call).toMatchObject({ invocationId: result.structuredContent.invocationId, tool: 'mcp__arxiv__search', status: 'ok' });
    expect(call.sessionId).toMatch(/^ses_/);
    expect(entries.some((e) => e.msg === 'http request' && e.path === '/mcp' && e.status === 200)).toBe(true);
    expect(j.running.output()).not.toContain(token);
    expect(j.running.output()).not.toContain('wrong-token-value');
  });

  it('a bad flag and a port in use each give one clear line naming the flag, and exit code 2', async () => {
    const bad = spawnCli(['serve', '--prot', '1']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('--prot');
    expect(bad.output()).toContain('scigate serve --help');

    const badEnv = spawnCli(['serve'], { SCIGATE_PORT: 'eighty' });
    expect(await badEnv.exited).toBe(2);
    expect(badEnv.output()).toContain('SCIGATE_PORT');

    const version = spawnCli(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.output()).toMatch(/^scigate \d+\.\d+\.\d+\n$/);

    // A mistyped source id is answered with the ids there are.
    const unknownSource = spawnCli(['source', 'arxvi']);
    expect(await unknownSource.exited).toBe(2);
    expect(unknownSource.output()).toMatch(/Unknown source "arxvi"; the built-in sources are .*arxiv.*pubmed/);

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const dir = await j.freshDataDir();
    const busy = spawnCli(['serve', '--port', String(port), '--data-dir', dir]);
    expect(await busy.exited).toBe(2);
    expect(busy.output()).toContain(`Port ${port}`);
    expect(busy.output()).toContain('--port');
    expect(busy.output().trim().split('\n')).toHaveLength(1);
    blocker.close();
  });

  it('a second gateway on a data directory in use is refused in one line naming the first; after kill -9 the next one starts', async () => {
    const dir = await j.freshDataDir();
    const first = spawnCli(['serve', '--port', '0', '--data-dir', dir], j.arxivEnv());
    j.running = first;
    const [, mcpUrl] = await first.waitFor(/MCP endpoint: (\S+)/);
    const second = spawnCli(['serve', '--port', '0', '--data-dir', dir]);
    try {
      // Without the lock it would start and serve: the race ends the test either way.
      expect(await Promise.race([second.exited, second.waitFor(/MCP endpoint/).then(() => 'started', () => 'exited')])).toBe(1);
    } finally {
      if (second.child.exitCode === null) process.kill(-second.child.pid!, 'SIGKILL');
    }
    expect(second.output()).toContain(`is in use by another scigate process (pid ${first.child.pid}, scigate.js serve`);
    expect(second.output()).toContain('--data-dir');
    expect(second.output().trim().split('\n')).toHaveLength(1);
    // The first gateway was not disturbed: it still answers, and its lock still names it.
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    await j.searchArxiv(await j.httpClient(mcpUrl!, token));
    expect(JSON.parse(await readFile(join(dir, 'scigate.lock'), 'utf8'))).toMatchObject({ pid: first.child.pid });

    process.kill(-first.child.pid!, 'SIGKILL');
    await first.exited;
    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir], j.arxivEnv());
    await j.running.waitFor(/MCP endpoint: (\S+)/);
  });

  it('scigate token --rotate while the gateway runs: the old token stops working and the new one works, unlogged', async () => {
    const dir = await j.freshDataDir();
    j.running = spawnCli(['serve', '--port', '0', '--data-dir', dir], { ...j.arxivEnv(), SCIGATE_LOG_LEVEL: 'debug' });
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    const api = mcpUrl!.replace(/\/mcp$/, '/api/sessions');
    const status = async (token: string) => (await fetch(api, { headers: { authorization: `Bearer ${token}` } })).status;
    const old = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    expect(await status(old)).toBe(200);
    const rotated = spawnCli(['token', '--data-dir', dir, '--rotate']);
    expect(await rotated.exited).toBe(0);
    const fresh = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    // The gateway looks at its token file once a second: generous limits, no claim about speed.
    await expect.poll(() => status(fresh), { timeout: 30_000, interval: 200 }).toBe(200);
    expect(await status(old)).toBe(401);
    const client = await j.httpClient(mcpUrl!, fresh);
    await j.searchArxiv(client);
    await j.running.waitFor(/only its new token is accepted/);
    expect(j.running.output()).not.toContain(fresh);
  });

  it('on every interface (0.0.0.0, as the container image runs) it prints an endpoint a client can use', async () => {
    const dir = await j.freshDataDir();
    // The image's settings: every interface, Host names limited to loopback and localhost.
    j.running = spawnCli(['serve', '--host', '0.0.0.0', '--port', '0', '--allowed-hosts', 'localhost', '--data-dir', dir], j.arxivEnv());
    const [, mcpUrl] = await j.running.waitFor(/MCP endpoint: (\S+)/);
    // "http://0.0.0.0:…" was printed: its Host header is refused by the DNS-rebinding guard (403).
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await j.running.waitFor(/Listening on every interface \(0\.0\.0\.0\)[^\n]*--allowed-hosts/);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    await j.searchArxiv(await j.httpClient(mcpUrl!, token));
  });

  it('scigate token prints the token; --rotate replaces it', async () => {
    const dir = await j.freshDataDir();
    // A data directory a gateway has made (on its first start) without a token yet.
    await mkdir(dir);
    const first = spawnCli(['token', '--data-dir', dir]);
    expect(await first.exited).toBe(0);
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
    expect(first.output()).toContain(token);
    const rotated = spawnCli(['token', '--data-dir', dir, '--rotate']);
    expect(await rotated.exited).toBe(0);
    expect((await readFile(join(dir, 'admin-token'), 'utf8')).trim()).not.toBe(token);
  });

  it('scigate token refuses a data directory that does not exist instead of making one with a token no gateway knows', async () => {
    const missing = await j.freshDataDir();
    const refused = spawnCli(['token', '--data-dir', missing]);
    expect(await refused.exited).toBe(2);
    expect(refused.output()).toContain(`There is no data directory at ${missing}; pass the one the gateway uses with --data-dir (SCIGATE_DATA_DIR)`);
    await expect(stat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
