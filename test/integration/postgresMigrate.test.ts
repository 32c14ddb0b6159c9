import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../gateway/core/index.js';
import { openStorage } from '../../storage/index.js';
import { spawnCli } from '../fixtures/cliProcess.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { startPostgres, type PostgresServer } from '../fixtures/postgres.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let postgres: PostgresServer;
let provider: ReplayServer;
let dataDir: string;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  [postgres, provider] = await Promise.all([startPostgres(), startReplayServer(arxivReplay)]);
  dataDir = await mkdtemp(join(tmpdir(), 'scigate-migrate-'));
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.dispose().catch(() => {});
  await Promise.all([postgres.stop(), provider.close(), rm(dataDir, { recursive: true, force: true })]);
});

const env = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api` });

async function api(gateway: TestGateway, path: string) {
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${gateway.token}` } });
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
}

/** Runs the compiled `scigate migrate` and resolves with its exit code and output. */
async function migrate(url: string) {
  const cli = spawnCli(['migrate', '--data-dir', dataDir, '--to', url]);
  const code = await cli.exited;
  return { code, output: cli.output() };
}

describe('scigate migrate --to postgres://…', () => {
  it('moves an embedded data dir into PostgreSQL, and a gateway on that PostgreSQL serves its sessions and stored results', async () => {
    const embedded = await startTestGateway(env(), dataDir);
    gateways.push(embedded);
    const client = await embedded.connect({ project: 'moved-project' });
    const call = (await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as any;
    expect(call.isError).toBeFalsy();
    const invocationId = call.structuredContent.invocationId as string;
    const sessionId = (await api(embedded, '/api/sessions')).sessions.find((s: any) => s.projectId === 'moved-project').id as string;
    await embedded.dispose();
    // An always_allow authorization, which the embedded store keeps in its audit log, not its database.
    const store = await openStorage({ dataDir, log: silentLogger });
    await store.permissions.addAuthorization({
      id: 'pauth_moved', sessionId, invocationId, requestId: null, grantId: null, action: 'tool.call', resource: 'mcp__notes__write', basis: 'always_allow',
      allowed: true, via: 'mode', epoch: 1, createdAt: new Date().toISOString(),
    });
    await store.close();

    const url = postgres.url({ database: 'postgres' });
    const first = await migrate(url);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/invocations\s+1 copied/);
    expect(first.output).toMatch(/sessions\s+1 copied/);
    expect(first.output).toMatch(/permission_authorizations\s+1 copied/);
    expect(first.output).toMatch(/CAS blobs\s+2 copied/);
    expect(first.output).not.toContain(postgres.password);
    // Run again (after a failure, say): nothing is copied twice.
    const again = await migrate(url);
    expect(again.code).toBe(0);
    expect(again.output).toMatch(/invocations\s+0 copied, 1 already there/);

    const replica = await startTestGateway(env(), dataDir, { store: url });
    gateways.push(replica);
    const sessions = (await api(replica, '/api/sessions')).sessions;
    expect(sessions.map((s: any) => s.id)).toContain(sessionId);
    const detail = await api(replica, `/api/sessions/${sessionId}/invocations/${invocationId}`);
    expect(detail.invocation).toMatchObject({ id: invocationId, status: 'ok', sourceId: 'arxiv', toolId: 'search' });
    expect(detail.result.records).toHaveLength(10);
    expect(detail.arguments).toEqual({ query: 'testing' });
    expect((await api(replica, `/api/sessions/${sessionId}/authorizations`)).authorizations.map((a: any) => a.id)).toEqual(['pauth_moved']);

    // New calls on the PostgreSQL gateway are audited there too.
    const next = (await (await replica.connect()).callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } })) as any;
    const rows = await postgres.query('SELECT status FROM invocations WHERE id = $1', [next.structuredContent.invocationId]);
    expect(rows).toEqual([{ status: 'ok' }]);
  });

  it('refuses a --to that is not a postgres:// URL, or a data dir that holds no store, with a usage error', async () => {
    const bad = spawnCli(['migrate', '--data-dir', dataDir, '--to', 'mysql://root:hunter2@db/x']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toMatch(/--to \(SCIGATE_MIGRATE_TO\) must be postgres:.*root:\*\*\*@db/);
    expect(bad.output()).not.toContain('hunter2');
    const empty = spawnCli(['migrate', '--data-dir', join(dataDir, 'nothing-here'), '--to', postgres.url()]);
    expect(await empty.exited).toBe(2);
    expect(empty.output()).toMatch(/holds no scigate\.db; point --data-dir/);
  });
});
