import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { logIn } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import type { PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
let schema: string;

beforeAll(async () => {
  [postgres, notes, protectedMcp] = await Promise.all([sharedPostgres(), startDangerousHttpServer(), startProtectedMcp({ accessTtlSeconds: 120 })]);
  const store = await postgres.freshSchema();
  schema = /search_path=(\w+)/.exec(decodeURIComponent(store))![1]!;
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

  it("both replicas discover a new server; when B accepts its tools first, A's create still succeeds and A takes B's accepted tools", async () => {
    const gate = await heldFirstToolsList(notes.url);
    try {
      const creating = apiA.post('/api/mcp/servers', { name: 'gated', transport: 'http', url: gate.url, enabled: true });
      await gate.held; // A's discovery waits at tools/list: its server row is saved, its tools not yet accepted
      const [row] = await postgres.query(`SELECT id, version FROM ${schema}.custom_servers`);
      const [id, inserted] = [String(row!.id), Number(row!.version)];
      const version = async () => Number((await postgres.query(`SELECT version FROM ${schema}.custom_servers WHERE id = $1`, [id]))[0]?.version);
      await apiB.get('/api/mcp/servers'); // B loads the server and discovers it
      await vi.waitFor(async () => expect(await version()).toBeGreaterThan(inserted), LONG); // B saved its accepted tools
      gate.release();
      const created = await creating;
      expect(created.status, created.text).toBe(201);
      expect(created.body.server.tools.map((t: any) => t.upstreamName)).toContain('write_note');
      expect((await apiA.del(`/api/mcp/servers/${id}`)).status).toBe(200);
    } finally {
      await gate.close();
    }
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

    // Both replicas meet the expired token: A renews first and the refresh token rotates, so the
    // provider refuses B's renewal with the old one; B takes A's saved tokens, and nobody is logged out.
    const agentA = await a.connect({ name: 'agent-on-a' });
    await allowEverything(apiA, (await apiA.sessionOf('agent-on-a')).id);
    await vi.waitFor(async () => expect(await toolNames(agentA)).toContain(echo), LONG);
    protectedMcp.provider.advance(121_000);
    const refreshes = protectedMcp.provider.refreshes;
    for (const agent of [agentA, agentB]) {
      const renewed = (await agent.callTool({ name: echo, arguments: { message: 'after expiry' } })) as any;
      expect(renewed.isError, JSON.stringify(renewed.content)).toBeFalsy();
    }
    expect(protectedMcp.provider.refreshes).toBe(refreshes + 1);
    expect(await stateOnB()).toBe('authorized');
    expect((await apiA.get(`/api/mcp/servers/${id}`)).body.server.authState).toBe('authorized');

    expect((await apiA.post(`/api/mcp/servers/${id}/oauth/clear`)).status).toBe(200);
    await vi.waitFor(async () => expect(await stateOnB()).toBe('required'), LONG);
  });
});

/** A pass-through to `target` that holds the first tools/list request until `release()`. */
async function heldFirstToolsList(target: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let first = true;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (first && /"method"\s*:\s*"tools\/list"/.test(body.toString())) {
      first = false;
      arrived();
      await released;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
    try {
      const answer = await fetch(target, { method: req.method!, headers, ...(body.length ? { body } : {}) });
      const bytes = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(bytes);
    } catch {
      res.destroy(); // the target closed (the test is ending): the gateway sees a dropped connection
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    held,
    release,
    close: () => new Promise<void>((resolve) => (release(), server.closeAllConnections(), server.close(() => resolve()))),
  };
}
