import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'journey', version: '1' } } };

const started: CliProcess[] = [];
const dirs: string[] = [];

/** The CLI on a fresh data directory; killed (with its group) after the test if it still runs. */
async function run(args: string[], env: Record<string, string>): Promise<CliProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-urls-'));
  dirs.push(dir);
  const cli = spawnCli(args.map((a) => (a === '<data-dir>' ? join(dir, 'data') : a)), env);
  started.push(cli);
  return cli;
}

afterEach(async () => {
  for (const cli of started.splice(0)) {
    if (cli.child.pid && cli.child.exitCode === null) {
      process.kill(-cli.child.pid, 'SIGKILL');
      await cli.exited;
    }
  }
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('provider URL variables', () => {
  it('a SCIGATE_<ID>_BASE_URL that is no http(s) URL stops serve and source at start, naming the variable (exit 2)', async () => {
    const serve = await run(['serve', '--port', '0', '--data-dir', '<data-dir>'], { SCIGATE_ARXIV_BASE_URL: 'export.arxiv.org/api' });
    expect(await serve.exited).toBe(2);
    expect(serve.output()).toContain('SCIGATE_ARXIV_BASE_URL must be an http or https URL, e.g. http://127.0.0.1:8123/api, not "export.arxiv.org/api".');

    const source = await run(['source', 'pubmed'], { SCIGATE_PUBMED_PMC_OA_BASE_URL: 'ftp://mirror.example/pmc' });
    source.child.stdin!.end();
    expect(await source.exited).toBe(2);
    expect(source.output()).toContain('SCIGATE_PUBMED_PMC_OA_BASE_URL must be an http or https URL');
  });

  it('scigate stdio answers its first request with the bad variable and exits 2', async () => {
    const stdio = await run(['stdio', '--data-dir', '<data-dir>'], { SCIGATE_GEO_BASE_URL: 'not a url' });
    stdio.child.stdin!.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdio.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await stdio.waitFor(/"id":2/);
    stdio.child.stdin!.end();
    expect(await stdio.exited).toBe(2);
    expect(stdio.output()).toContain('SCIGATE_GEO_BASE_URL must be an http or https URL');
  });
});
