import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setMaxListeners } from 'node:events';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startPostgres, type PostgresServer } from '../fixtures/postgres.js';
import { startTestRedis, type TestRedis } from '../fixtures/redis.js';
import { removeSharedKeyFile, startReplica, type Replica } from '../fixtures/replicas.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';

/** How long before the kill an answer counts as within the audit's commit window (measured generously on a loaded machine). */
const NEAR_KILL_MS = 2000;
/** Long enough that a loaded CI machine never misses six beats of a live replica in a row. */
const REPLICA_TIMEOUT_S = 6;

/**
 * Two real `scigate serve` processes on ONE PostgreSQL and ONE Redis (issue 18's acceptance): what a
 * human decides on one replica's admin API holds on the other, any replica's admin API answers for
 * every Session, a kill -9 loses no answered call, and a restart leaves the others' pending work alone.
 * Only the admin API and MCP clients are used, never the store's tables.
 */
const LONG = { timeout: 60_000, interval: 100 };

let postgres: PostgresServer;
let redis: TestRedis;
let upstream: DangerousHttpServer;
let storeUrl: string;
const replicas: Replica[] = [];
let a: Replica;
let b: Replica;
let write: string;

/**
 * A replica on the shared PostgreSQL and Redis (and the secrets key every replica shares). Its
 * heartbeat goes stale after REPLICA_TIMEOUT_S instead of 30 s, so the survivor's sweep after a
 * kill -9 is seen in seconds.
 */
async function replica(): Promise<Replica> {
  const started = await startReplica(redis.url, {}, ['--store', storeUrl, '--replica-timeout', String(REPLICA_TIMEOUT_S)]);
  replicas.push(started);
  return started;
}

/** The named custom server as `on`'s admin API lists it, once it is there with its tools discovered. */
function listedServer(on: Replica, name: string) {
  return vi.waitFor(async () => {
    const found = (await on.api('/api/mcp/servers')).body.servers.find((s: { name: string }) => s.name === name);
    if (!found?.tools?.length) throw new Error(`${name} is not listed with tools yet`);
    return found;
  }, LONG);
}

beforeAll(async () => {
  [postgres, redis, upstream] = await Promise.all([startPostgres({ durable: true }), startTestRedis(), startDangerousHttpServer()]);
  storeUrl = await postgres.freshSchema();
  [a, b] = await Promise.all([replica(), replica()]);
  // The notes server is added once, on A: the configuration is shared, so B serves it too. Its limits
  // are then shared too (one limiter in Redis): room for every client of the kill test, so the slots
  // a killed replica held until their lease runs out (10 s) do not stall the survivor's calls.
  const created = await a.api('/api/mcp/servers', {
    method: 'POST',
    body: { name: 'notes', transport: 'http', url: upstream.url, enabled: true, limits: { concurrency: 16, queueDepth: 64 } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  write = created.body.server.tools.find((t: { upstreamName: string }) => t.upstreamName === 'write_note').name;
  expect((await listedServer(b, 'notes')).id).toBe(created.body.server.id);
}, 180_000);
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await removeSharedKeyFile();
  await upstream?.close();
  await redis?.stop();
  await postgres?.stop();
});

let clients = 0;
/** A client of `on` and its Session id, as `through`'s admin API lists it. */
async function session(on: Replica, through: Replica = on): Promise<{ client: Client; sessionId: string }> {
  const name = `client-${++clients}`;
  const client = await on.connect(name);
  const sessionId = await vi.waitFor(async () => {
    const found = (await through.api('/api/sessions')).body.sessions.find((s: { clientName: string }) => s.clientName === name);
    if (!found) throw new Error(`no Session for ${name} yet`);
    return found.id as string;
  }, LONG);
  return { client, sessionId };
}

/** The Session's one pending request, read through `through`'s admin API once it exists. */
async function pendingRequest(through: Replica, sessionId: string): Promise<{ id: string; status: string }> {
  return vi.waitFor(async () => {
    const { body } = await through.api(`/api/sessions/${sessionId}/permission-requests?status=pending`);
    if (body.requests.length !== 1) throw new Error(`${body.requests.length} pending requests`);
    return body.requests[0];
  }, LONG);
}

function decide(through: Replica, requestId: string, decision: string) {
  return through.api(`/api/permission-requests/${requestId}/decision`, { method: 'POST', body: { decision } });
}

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text?: string }>; _meta?: Record<string, any> };
const invocationOf = (answer: ToolAnswer): string => answer._meta!['scigate/invocation'].invocationId;

describe('two replicas on one PostgreSQL and one Redis', () => {
  it("a custom server added, edited and deleted through A's admin API is live on B: listed, in tools/list, callable", async () => {
    const created = await a.api('/api/mcp/servers', { method: 'POST', body: { name: 'notes-two', transport: 'http', url: upstream.url, enabled: true } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.server.id as string;
    const tool = created.body.server.tools.find((t: { upstreamName: string }) => t.upstreamName === 'write_note').name as string;
    const { client, sessionId } = await session(b);
    await vi.waitFor(async () => expect((await client.listTools()).tools.map((t) => t.name)).toContain(tool), LONG);
    expect((await listedServer(b, 'notes-two')).id).toBe(id);
    expect((await b.api(`/api/sessions/${sessionId}`, { method: 'PATCH', body: { approvalMode: 'always_allow' } })).status).toBe(200);
    const calls = upstream.calls.length;
    const answer = (await client.callTool({ name: tool, arguments: { text: 'through B' } })) as ToolAnswer;
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
    expect(answer.content.at(-1)).toEqual({ type: 'text', text: 'saved: through B' });
    expect(upstream.calls.length).toBe(calls + 1);

    // Disabled on A: B stops offering its tools. Deleted on A: B no longer lists it.
    expect((await a.api(`/api/mcp/servers/${id}`, { method: 'PATCH', body: { enabled: false } })).status).toBe(200);
    await vi.waitFor(async () => expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(tool), LONG);
    expect((await a.api(`/api/mcp/servers/${id}`, { method: 'DELETE' })).status).toBe(200);
    const names = (await b.api('/api/mcp/servers')).body.servers.map((s: { name: string }) => s.name);
    expect(names).toContain('notes');
    expect(names).not.toContain('notes-two');
  });

  it('a call waiting for approval on B is released by a decision sent to A', async () => {
    const { client, sessionId } = await session(b, a);
    const answer = client.callTool({ name: write, arguments: { text: 'decided on A' } }) as Promise<ToolAnswer>;
    const request = await pendingRequest(a, sessionId);
    expect((await decide(a, request.id, 'allow_once')).status).toBe(200);
    const result = await answer;
    expect(result.isError).toBeFalsy();
    expect(result.content.at(-1)).toEqual({ type: 'text', text: 'saved: decided on A' });
    expect((await b.api(`/api/sessions/${sessionId}/permission-requests`)).body.requests[0]).toMatchObject({ status: 'allowed', resolvedVia: 'admin' });
  });

  it('a Grant made on A (allow_matching) applies to the next call on B without asking', async () => {
    const { client, sessionId } = await session(b, a);
    const first = client.callTool({ name: write, arguments: { text: 'first' } }) as Promise<ToolAnswer>;
    const request = await pendingRequest(a, sessionId);
    expect((await decide(a, request.id, 'allow_matching')).status).toBe(200);
    expect((await first).isError).toBeFalsy();
    const next = (await client.callTool({ name: write, arguments: { text: 'second' } })) as ToolAnswer;
    expect(next.isError).toBeFalsy();
    const { body } = await a.api(`/api/sessions/${sessionId}/authorizations`);
    expect(body.authorizations.map((x: { basis: string }) => x.basis)).toEqual(['allow_matching', 'grant']);
    expect((await a.api(`/api/sessions/${sessionId}/permission-requests`)).body.requests).toHaveLength(1);
  });

  it("any replica's admin API lists every Session, whichever replica serves it", async () => {
    const onA = await session(a);
    const onB = await session(b);
    for (const through of [a, b]) {
      const ids = (await through.api('/api/sessions')).body.sessions.map((s: { id: string }) => s.id);
      expect(ids).toEqual(expect.arrayContaining([onA.sessionId, onB.sessionId]));
    }
  });

  it("B's restart does not orphan A's pending request; the restarted B can decide it", async () => {
    const { client, sessionId } = await session(a);
    const answer = client.callTool({ name: write, arguments: { text: 'survives a restart of B' } }) as Promise<ToolAnswer>;
    const request = await pendingRequest(a, sessionId);
    await b.stop();
    b = await replica();
    expect((await b.api(`/api/sessions/${sessionId}/permission-requests`)).body.requests[0]).toMatchObject({ id: request.id, status: 'pending' });
    expect((await decide(b, request.id, 'allow_once')).status).toBe(200);
    expect((await answer).content.at(-1)).toEqual({ type: 'text', text: 'saved: survives a restart of B' });
  });

  it("kill -9 of A under load loses no answered call, B keeps answering, and ends A's pending request once A's heartbeat is stale", async () => {
    const workers = await Promise.all([a, a, a, a, b, b, b, b].map((on) => session(on, b)));
    for (const { sessionId } of workers) {
      expect((await b.api(`/api/sessions/${sessionId}`, { method: 'PATCH', body: { approvalMode: 'always_allow' } })).status).toBe(200);
    }
    // A request waiting on A when it dies: a survivor ends it once A's heartbeat is stale.
    const waiting = await session(a, b);
    void waiting.client.callTool({ name: write, arguments: { text: 'never decided' } }).catch(() => undefined);
    const leftRequest = await pendingRequest(b, waiting.sessionId);
    const answered: Array<{ sessionId: string; invocationId: string; onA: boolean; at: number }> = [];
    let answeredOnA = 0;
    let answeredOnBAfterKill = 0;
    let killed = false;
    // A call in flight on A when it dies gets no answer: its client stops waiting instead of timing out.
    const aOnKill = new AbortController();
    // The SDK client leaves an abort listener on the signal of every request it was given; the
    // four loops on A make hundreds of calls with this one, so Node's leak warning does not apply.
    setMaxListeners(0, aOnKill.signal);
    const loop = async ({ client, sessionId }: { client: Client; sessionId: string }, onA: boolean) => {
      for (let i = 0, sinceKill = 0; ; i++) {
        if (killed && (onA || sinceKill++ >= 10)) return;
        const wasKilled = killed;
        const call = client.callTool({ name: write, arguments: { text: `${sessionId}-${i}` } }, undefined, onA ? { signal: aOnKill.signal } : {});
        const result = (await call.catch(() => undefined)) as ToolAnswer | undefined;
        if (!result) {
          if (onA) return; // A is gone: its clients get no answer, so nothing was acknowledged.
          throw new Error('B stopped answering');
        }
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        answered.push({ sessionId, invocationId: invocationOf(result), onA, at: performance.now() });
        if (onA) answeredOnA += 1;
        else if (wasKilled) answeredOnBAfterKill += 1;
      }
    };
    const running = workers.map((w, i) => loop(w, i < 4));
    await vi.waitFor(() => expect(answeredOnA).toBeGreaterThanOrEqual(40), LONG);
    const killedAt = performance.now();
    process.kill(-a.process.child.pid!, 'SIGKILL');
    killed = true;
    await a.process.exited;
    aOnKill.abort();
    await Promise.all(running);
    // B went on answering after A died: each of its four clients made 10 calls started after the kill.
    expect(answeredOnBAfterKill).toBe(40);
    await expect
      .poll(async () => (await b.api(`/api/sessions/${waiting.sessionId}/permission-requests`)).body.requests[0], { timeout: 120_000, interval: 1000 })
      .toMatchObject({ id: leftRequest.id, status: 'orphaned' });
    for (const { sessionId, invocationId, onA, at } of answered) {
      const { status, body } = await b.api(`/api/sessions/${sessionId}/invocations/${invocationId}`);
      expect(status, `${invocationId} of ${sessionId}`).toBe(200);
      // docs/storage.md: the intent is durable before the answer, the completion within one commit
      // window after it; a call A answered just before it died may end `interrupted` (its row is there).
      const nearKill = onA && killedAt - at < NEAR_KILL_MS;
      expect(body.invocation.id).toBe(invocationId);
      expect(nearKill ? ['ok', 'interrupted'] : ['ok'], invocationId).toContain(body.invocation.status);
    }
  }, 300_000);
});
