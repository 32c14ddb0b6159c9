import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { logIn } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { startPostgres, type PostgresServer } from '../fixtures/postgres.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/**
 * Two gateways on one PostgreSQL and NO Redis: what is saved through A's admin API (a custom server,
 * an OAuth login) becomes live on B by B's own checks of the store (before its server list answers,
 * and every 2 s), with nothing relaying events between them.
 */
const LONG = { timeout: 60_000, interval: 100 };

let postgres: PostgresServer;
let notes: DangerousHttpServer;
let protectedMcp: ProtectedMcp;
const dirs: string[] = [];
let a: TestGateway;
let b: TestGateway;
let apiA: AdminApi;
let apiB: AdminApi;
let agentB: Client;

beforeAll(async () => {
  [postgres, notes, protectedMcp] = await Promise.all([startPostgres(), startDangerousHttpServer(), startProtectedMcp({ accessTtlSeconds: 120 })]);
  const store = await postgres.freshSchema();
  const [dirA, dirB] = [await mkdtemp(join(tmpdir(), 'scigate-pg-a-')), await mkdtemp(join(tmpdir(), 'scigate-pg-b-'))];
  dirs.push(dirA, dirB);
  a = await startTestGateway({}, dirA, { store });
  // B shares A's secrets key, as README "Scale-out" tells (here: the same model-secrets.key file).
  await copyFile(join(dirA, 'model-secrets.key'), join(dirB, 'model-secrets.key'));
  b = await startTestGateway({}, dirB, { store });
  [apiA, apiB] = [adminApi(a), adminApi(b)];
  agentB = await b.connect({ name: 'agent-on-b' });
  await allowEverything(apiB, (await apiB.sessionOf('agent-on-b')).id);
}, 120_000);
afterAll(async () => {
  for (const gateway of [a, b]) await gateway?.dispose().catch(() => {});
  await Promise.all([notes?.close(), protectedMcp?.close(), postgres?.stop(), ...dirs.map((d) => rm(d, { recursive: true, force: true }))]);
});

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

describe('custom servers shared through PostgreSQL, without Redis', () => {
  it("a server added on A is in B's server list at once, then in B's tools/list, and its tool answers through B", async () => {
    const created = await apiA.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: notes.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body.server;
    const write = created.body.server.tools.find((t: any) => t.upstreamName === 'write_note').name as string;
    // The list answers after B checked the store: no waiting for the periodic check.
    expect((await apiB.get('/api/mcp/servers')).body.servers.map((s: any) => s.id)).toEqual([id]);
    await vi.waitFor(async () => expect(await toolNames(agentB)).toContain(write), LONG);
    const answer = (await agentB.callTool({ name: write, arguments: { text: 'via B' } })) as any;
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.content.at(-1)).toEqual({ type: 'text', text: 'saved: via B' });

    // A rename on A reaches B by the periodic check alone (nobody reads B's list).
    expect((await apiA.patch(`/api/mcp/servers/${id}`, { name: 'lab notes' })).status).toBe(200);
    await vi.waitFor(async () => expect(await toolNames(agentB)).toContain(write.replace('notes', 'lab-notes')), LONG);

    expect((await apiA.del(`/api/mcp/servers/${id}`)).status).toBe(200);
    await vi.waitFor(async () => expect((await toolNames(agentB)).some((n) => n.includes('notes'))).toBe(false), LONG);
    expect((await apiB.get('/api/mcp/servers')).body.servers).toEqual([]);
  });

  it('an OAuth login completed on A is used by B; cleared on A, B asks for a login again', async () => {
    const created = await apiA.post('/api/mcp/servers', { name: 'Protected', transport: 'http', url: protectedMcp.mcpUrl, enabled: true, auth: { mode: 'oauth' } });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body.server;
    const stateOnB = async () => (await apiB.get(`/api/mcp/servers/${id}`)).body.server?.authState;
    await vi.waitFor(async () => expect(await stateOnB()).toBe('required'), LONG);
    const login = await logIn(apiA, id);
    expect(login.callback.status).toBe(200);
    await vi.waitFor(async () => expect(await stateOnB()).toBe('authorized'), LONG);
    const echo = await vi.waitFor(async () => {
      const found = (await apiB.get(`/api/mcp/servers/${id}`)).body.server.tools.find((t: any) => t.upstreamName === 'echo');
      if (!found) throw new Error('echo not discovered on B yet');
      return found.name as string;
    }, LONG);
    await vi.waitFor(async () => expect(await toolNames(agentB)).toContain(echo), LONG);
    const answer = (await agentB.callTool({ name: echo, arguments: { message: 'token from A' } })) as any;
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(JSON.stringify(answer.content)).toContain('token from A');

    expect((await apiA.post(`/api/mcp/servers/${id}/oauth/clear`)).status).toBe(200);
    await vi.waitFor(async () => expect(await stateOnB()).toBe('required'), LONG);
  });
});
