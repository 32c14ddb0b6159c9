import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../gateway/core/index.js';
import { openStorage } from '../../storage/index.js';
import { spawnCli } from '../fixtures/cliProcess.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import type { PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let postgres: PostgresServer;
let provider: ReplayServer;
let notes: DangerousHttpServer;
let dataDir: string;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  [postgres, provider, notes] = await Promise.all([sharedPostgres(), startReplayServer(arxivReplay), startDangerousHttpServer()]);
  dataDir = await mkdtemp(join(tmpdir(), 'scigate-migrate-'));
});
afterAll(async () => {
  for (const gateway of gateways) await gateway.dispose().catch(() => {});
  await Promise.all([postgres.stop(), provider.close(), notes.close(), rm(dataDir, { recursive: true, force: true })]);
});

const env = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api` });

async function api(gateway: TestGateway, path: string, init: { method: string; body: unknown } = { method: 'GET', body: undefined }) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: init.method,
    headers: { authorization: `Bearer ${gateway.token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  expect(response.status, path).toBeLessThan(300);
  return response.json() as Promise<any>;
}

/** Runs the compiled `scigate migrate` and resolves with its exit code and output. */
async function migrate(url: string, from = dataDir) {
  const cli = spawnCli(['migrate', '--data-dir', from, '--to', url]);
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
    // Encrypted config too: a custom server (a header secret included) and its accepted tools.
    const created = (await api(embedded, '/api/mcp/servers', {
      method: 'POST',
      body: { name: 'notes', transport: 'http', url: notes.url, enabled: true, headers: [{ key: 'X-Lab-Key', value: 'lab-secret-3f1a' }] },
    })).server;
    const write = created.tools.find((t: any) => t.upstreamName === 'write_note').name as string;
    await embedded.dispose();
    // An always_allow authorization, which the embedded store keeps in its audit log, not its database.
    const store = await openStorage({ dataDir, log: silentLogger });
    await store.permissions.addAuthorization({
      id: 'pauth_moved', sessionId, invocationId, requestId: null, grantId: null, action: 'tool.call', resource: 'mcp__notes__write', basis: 'always_allow',
      allowed: true, via: 'mode', epoch: 1, createdAt: new Date().toISOString(),
    });
    await store.close();

    const url = postgres.url();
    const first = await migrate(url);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/invocations\s+1 copied/);
    expect(first.output).toMatch(/sessions\s+1 copied/);
    expect(first.output).toMatch(/permission_authorizations\s+1 copied/);
    expect(first.output).toMatch(/CAS blobs\s+2 copied/);
    expect(first.output).toMatch(/custom_servers\s+1 copied/);
    const stored = await postgres.query('SELECT ciphertext FROM custom_servers WHERE id = $1', [created.id]);
    expect(stored).toHaveLength(1);
    expect((stored[0]!.ciphertext as Buffer).includes('lab-secret-3f1a')).toBe(false);
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
    // The answer waits for the intent only; the completion follows it shortly (docs/storage.md, promise 2).
    const rows = () => postgres.query('SELECT status FROM invocations WHERE id = $1', [next.structuredContent.invocationId]);
    await expect.poll(rows, { timeout: 60_000, interval: 50 }).toEqual([{ status: 'ok' }]);

    // The custom server came along: listed, its tool offered and called through the PostgreSQL gateway.
    const listed = (await api(replica, '/api/mcp/servers')).servers;
    expect(listed.map((s: any) => [s.id, s.name])).toEqual([[created.id, 'notes']]);
    const moved = await replica.connect({ project: 'after-migrate' });
    await vi.waitFor(async () => expect((await moved.listTools()).tools.map((t) => t.name)).toContain(write), { timeout: 60_000, interval: 100 });
    const session = (await api(replica, '/api/sessions')).sessions.find((s: any) => s.projectId === 'after-migrate').id as string;
    await api(replica, `/api/sessions/${session}`, { method: 'PATCH', body: { approvalMode: 'always_allow' } });
    const saved = (await moved.callTool({ name: write, arguments: { text: 'after the move' } })) as any;
    expect(saved.isError, JSON.stringify(saved.content)).toBeFalsy();
    expect(saved.content.at(-1)).toEqual({ type: 'text', text: 'saved: after the move' });
  });

  it('refuses, copying nothing, a data dir whose secrets key is not the one PostgreSQL already holds', async () => {
    const other = await mkdtemp(join(tmpdir(), 'scigate-migrate-other-'));
    try {
      const gateway = await startTestGateway(env(), other);
      await api(gateway, '/api/mcp/servers', { method: 'POST', body: { name: 'elsewhere', transport: 'http', url: notes.url, enabled: false } });
      await gateway.dispose();
      const url = postgres.url();
      const refused = await migrate(url, other);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(/model-secrets\.key is not the key .* --secret-key-file \(SCIGATE_SECRET_KEY_FILE\)/);
      expect(await postgres.query("SELECT count(*)::int AS n FROM custom_servers")).toEqual([{ n: 1 }]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('refuses a --to that is not a postgres:// URL, or a data dir that holds no store, with a usage error', async () => {
    const bad = spawnCli(['migrate', '--data-dir', dataDir, '--to', 'mysql://root:hunter2@db/x']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toMatch(/--to \(SCIGATE_MIGRATE_TO\) must be postgres:.*root:\*\*\*@db/);
    expect(bad.output()).not.toContain('hunter2');
    const empty = spawnCli(['migrate', '--data-dir', join(dataDir, 'nothing-here'), '--to', postgres.url()]);
    expect(await empty.exited).toBe(2);
    expect(empty.output()).toMatch(/holds no scigate\.db; point --data-dir/);
    // A PostgreSQL it cannot reach is named by migrate's own flag, not serve's --store.
    const unreachable = spawnCli(['migrate', '--data-dir', dataDir, '--to', 'postgres://u:secret@127.0.0.1:1/db']);
    expect(await unreachable.exited).not.toBe(0);
    expect(unreachable.output()).toMatch(/Cannot reach PostgreSQL .* fix the host and port in --to \(SCIGATE_MIGRATE_TO\)/);
  });
});
