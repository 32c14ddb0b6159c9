import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';

/** How long the slow arXiv holds each answer: longer than every retry of a queued call. */
const PROVIDER_DELAY_MS = 5000;

let gateway: CliProcess | undefined;
let provider: Server | undefined;
let client: Client | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await client?.close().catch(() => {});
  if (gateway?.child.pid && gateway.child.exitCode === null) {
    process.kill(-gateway.child.pid, 'SIGKILL');
    await gateway.exited;
  }
  provider?.closeAllConnections();
  await new Promise((done) => (provider ? provider.close(done) : done(undefined)));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  [gateway, provider, client, dataDir] = [undefined, undefined, undefined, undefined];
});

/** The arXiv replay, each answer held for PROVIDER_DELAY_MS. */
async function slowArxiv(): Promise<string> {
  provider = createServer((req, res) => {
    const answer = arxivReplay(new URL(req.url ?? '/', 'http://127.0.0.1'), req) ?? { status: 599 };
    setTimeout(() => res.writeHead(answer.status ?? 200, answer.headers).end(answer.body), PROVIDER_DELAY_MS);
  });
  await new Promise<void>((ready) => provider!.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(provider.address() as { port: number }).port}/api`;
}

describe('limits longer than the longest timer', () => {
  it('a queueTimeoutMs past 2^31 ms lets a queued call wait its turn instead of timing out at once', async () => {
    const baseUrl = await slowArxiv();
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-long-'));
    gateway = spawnCli(['serve', '--port', '0', '--data-dir', join(dataDir, 'data')], {
      SCIGATE_ARXIV_BASE_URL: baseUrl,
      SCIGATE_SOURCE_LIMITS: JSON.stringify({ arxiv: { minTimeMs: 0, concurrency: 1, queueTimeoutMs: 3_000_000_000 } }),
    });
    const [, mcpUrl] = await gateway.waitFor(/MCP endpoint: (\S+)/);
    const [, tokenPath] = await gateway.waitFor(/Token file:\s+(\S+)/);
    const token = (await readFile(tokenPath!, 'utf8')).trim();
    client = new Client({ name: 'journey', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

    const calls = [
      client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } }),
      client.callTool({ name: 'mcp__arxiv__get', arguments: { ids: ['1605.08386'] } }),
    ];
    const [search, get] = (await Promise.all(calls)) as any[];
    expect(search.isError).toBeFalsy();
    expect(get.structuredContent?.error?.code).toBeUndefined();
    expect(get.isError).toBeFalsy();
  });
});
