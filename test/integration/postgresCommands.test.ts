import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, spawnCli } from '../fixtures/cliProcess.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import type { PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';

let postgres: PostgresServer;
let provider: ReplayServer;
let dir: string;

beforeAll(async () => {
  [postgres, provider] = await Promise.all([sharedPostgres(), startReplayServer(arxivReplay)]);
  dir = await mkdtemp(join(tmpdir(), 'scigate-pgcli-'));
});
afterAll(async () => {
  await Promise.all([postgres.stop(), provider.close(), rm(dir, { recursive: true, force: true })]);
});

describe('the commands on --store postgres://…', () => {
  it('scigate stdio keeps its Session and audit in PostgreSQL', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'stdio', '--data-dir', join(dir, 'stdio'), '--store', postgres.url()],
      env: { PATH: process.env.PATH ?? '', SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`, SCIGATE_LOG_LEVEL: 'error' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'pg-stdio', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as any;
      expect(result.isError).toBeFalsy();
      // The answer waits for the intent only; the completion follows it shortly (docs/storage.md, promise 2).
      const rows = () =>
        postgres.query('SELECT i.status, s.transport, s.client_name FROM invocations i JOIN sessions s ON s.id = i.session_id WHERE i.id = $1', [
          result.structuredContent.invocationId,
        ]);
      await expect.poll(rows, { timeout: 60_000, interval: 50 }).toEqual([{ status: 'ok', transport: 'stdio', client_name: 'pg-stdio' }]);
    } finally {
      await client.close();
    }
  });

  it('scigate serve with a wrong password stops at start-up, says to fix the login, and never prints the password', async () => {
    const serve = spawnCli(['serve', '--port', '0', '--data-dir', join(dir, 'serve'), '--store', postgres.url({ password: 'wrong-Secret-9' })]);
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toMatch(/scigate: PostgreSQL at postgres:\/\/scigate:\*\*\*@127\.0\.0\.1:\d+\/\w+ refused the login .*Fix the user name and password in --store \(SCIGATE_STORE\)/);
    expect(serve.output()).not.toContain('wrong-Secret-9');
  });
});
