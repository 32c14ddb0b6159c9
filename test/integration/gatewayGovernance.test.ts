import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomId, sharedSchemaValidator } from '../../gateway/core/index.js';
import { createDownstreamServer } from '../../gateway/listener/index.js';
import { fixtureBytes, startReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { createBrokerHarness } from '../fixtures/brokerHarness.js';
import { testSession } from '../fixtures/brokerDoubles.js';
import { flakyMcpSource } from '../fixtures/servers/flakySource.js';
import { waitUntil } from '../fixtures/cliProcess.js';
import { mcpPost, rawMcpSession } from '../fixtures/rawMcp.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gatewayWith(env: Record<string, string>): Promise<TestGateway> {
  const gateway = await startTestGateway(env);
  cleanups.push(() => gateway.dispose());
  return gateway;
}

/** A gateway whose arXiv provider takes requests and never answers; it counts them, and the ones the gateway gave up (closed). */
async function gatewayWithHangingArxiv(): Promise<{ gateway: TestGateway; requests: () => number; aborted: () => number }> {
  let requests = 0;
  let aborted = 0;
  const hanging = createServer((req) => {
    requests += 1;
    req.socket.once('close', () => void (aborted += 1));
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => (hanging.closeAllConnections(), hanging.close(r))));
  const gateway = await gatewayWith({ SCIGATE_ARXIV_BASE_URL: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/api` });
  return { gateway, requests: () => requests, aborted: () => aborted };
}

async function api(gateway: TestGateway, path: string, method: 'GET' | 'POST' = 'GET') {
  const pending = method === 'GET' ? request(gateway.url).get(path) : request(gateway.url).post(path);
  return (await pending.set('authorization', `Bearer ${gateway.token}`).expect(200)).body as any;
}

/** The Session's invocations once at least one is recorded (the audit row is written after the answer). */
function invocationsOf(gateway: TestGateway, sessionId: string): Promise<any[]> {
  return vi.waitFor(
    async () => {
      const { invocations } = await api(gateway, `/api/sessions/${sessionId}/invocations`);
      if (invocations.length === 0) throw new Error('no invocation recorded yet');
      return invocations as any[];
    },
    { timeout: 60_000, interval: 20 },
  );
}

describe('governance through the gateway', () => {
  it('a cache hit does not reach the upstream yet writes its own invocation with cacheHit', async () => {
    const provider = await startReplayServer(arxivReplay);
    cleanups.push(() => provider.close());
    const gateway = await gatewayWith({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api` });
    const client = await gateway.connect();
    const args = { name: 'mcp__arxiv__get', arguments: { ids: ['1605.08386'] } };
    const first = (await client.callTool(args)) as any;
    const second = (await client.callTool(args)) as any;
    expect(provider.requests).toHaveLength(1);
    expect(second.structuredContent.records).toEqual(first.structuredContent.records);
    expect(second.structuredContent.invocationId).not.toBe(first.structuredContent.invocationId);
    const { sessions } = await api(gateway, '/api/sessions');
    const { invocations } = await api(gateway, `/api/sessions/${sessions[0].id}/invocations`);
    const byId = Object.fromEntries(invocations.map((i: any) => [i.id, i]));
    expect(byId[first.structuredContent.invocationId]).toMatchObject({ cacheHit: false, attempts: 1 });
    expect(byId[second.structuredContent.invocationId]).toMatchObject({ cacheHit: true, attempts: 0, status: 'ok' });
  });

  it('two Sessions share one source limiter: the provider never sees more than its concurrency', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = createServer((req, res) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/atom+xml' });
        res.end(fixtureBytes('arxiv', 'body-idlist-record.xml'));
      }, 60);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => slow.close(r)));
    const gateway = await gatewayWith({ SCIGATE_ARXIV_BASE_URL: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/api` });
    const [alice, bob] = [await gateway.connect({ name: 'alice' }), await gateway.connect({ name: 'bob' })];
    const calls = [0, 1, 2, 3].map((i) =>
      (i % 2 ? alice : bob).callTool({ name: 'mcp__arxiv__search', arguments: { query: `q${i}` } }),
    );
    const results = (await Promise.all(calls)) as any[];
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(maxInFlight).toBe(1);
    const status = await api(gateway, '/api/catalog/sources/arxiv/status');
    expect(status.limiter).toMatchObject({ running: 0, queued: 0 });
  });

  it('closing the MCP session cancels its call in flight; the invocation ends cancelled', async () => {
    const { gateway, requests } = await gatewayWithHangingArxiv();
    const client = await gateway.connect();
    const call = client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'never answers' } }).catch((e: unknown) => e);
    await waitUntil(() => requests() === 1);
    await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    await client.close();
    await call;
    const { sessions } = await api(gateway, '/api/sessions');
    expect(sessions[0].endedAt).not.toBeNull();
    const invocations = await invocationsOf(gateway, sessions[0].id);
    expect(invocations[0]).toMatchObject({ status: 'cancelled', errorCode: 'cancelled' });
  });

  it("the client's notifications/cancelled aborts the upstream request; the invocation ends cancelled", async () => {
    const { gateway, requests, aborted } = await gatewayWithHangingArxiv();
    const client = await gateway.connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'slow' } }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
    await waitUntil(() => requests() === 1);
    controller.abort();
    await call;
    expect(await waitUntil(() => aborted() === 1)).toBe(true);
    const { sessions } = await api(gateway, '/api/sessions');
    const invocations = await invocationsOf(gateway, sessions[0].id);
    expect(invocations[0]).toMatchObject({ status: 'cancelled', errorCode: 'cancelled', attempts: 1 });
    expect(requests()).toBe(1);
  });

  it("a POST whose request the client cancels ends at once: no response will come, so its stream does not wait for one", async () => {
    const { gateway, requests } = await gatewayWithHangingArxiv();
    const session = await rawMcpSession(gateway, 'raw-cancel');
    const answer = await mcpPost(gateway, session, { jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: { name: 'mcp__arxiv__search', arguments: { query: 'slow' } } });
    await waitUntil(() => requests() === 1);
    expect((await mcpPost(gateway, session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c2' } })).status).toBe(202);
    const stillOpen = new Promise((resolve) => setTimeout(() => resolve('still open'), 5000));
    const body = await Promise.race([answer.text(), stillOpen]);
    expect(body).not.toBe('still open');
    expect(body).not.toContain('"id":"c2"');
  });

  it('catalog routes list sources, status, tools and keyword routing', async () => {
    const gateway = await gatewayWith({});
    const { sources } = await api(gateway, '/api/catalog/sources');
    expect(sources.find((s: any) => s.id === 'arxiv')).toMatchObject({ enabled: true, discovery: { state: 'ready' }, toolCount: 2 });
    const status = await api(gateway, '/api/catalog/sources/arxiv/status');
    expect(status.tools).toEqual(['mcp__arxiv__search', 'mcp__arxiv__get']);
    expect(status.hidden).toEqual([]);
    const { tools } = await api(gateway, '/api/catalog/sources/arxiv/tools');
    expect(tools[0].inputSchema.properties.query).toBeDefined();
    const routed = await api(gateway, '/api/catalog/tools?q=preprint');
    expect(routed.tools.map((t: any) => t.name)).toContain('mcp__arxiv__search');
    const none = await api(gateway, '/api/catalog/tools?q=zebrafish');
    expect(none.tools.filter((t: any) => t.sourceId === 'arxiv')).toEqual([]);
    const reloaded = await api(gateway, '/api/catalog/reload', 'POST');
    expect(reloaded.sources.length).toBeGreaterThan(0);
  });
});

describe('progress and the live tool list', () => {
  async function agentOverDownstream() {
    const counters = { calls: 0, cancelled: 0 };
    const source = flakyMcpSource([], counters);
    const h = await createBrokerHarness([source]);
    const server = createDownstreamServer({ ...h.deps, broker: h.broker, newId: randomId, version: 'test' }, testSession.id);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'progress-agent', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(clientSide);
    cleanups.push(async () => (await client.close(), await h.close()));
    return { client, source, h };
  }

  it('progress notifications from the upstream reach the SDK client under its own token', async () => {
    const { client } = await agentOverDownstream();
    const seen: number[] = [];
    const result = await client.callTool({ name: 'mcp__flaky__get', arguments: { id: 'p' } }, undefined, {
      onprogress: (p) => void seen.push(p.progress),
    });
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual([1]);
  });

  it('a rediscovered schema change sends notifications/tools/list_changed to connected sessions', async () => {
    const { client, source, h } = await agentOverDownstream();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    source.schema.set('v2');
    await h.registry.discover('flaky');
    expect(await waitUntil(() => changed === 1)).toBe(true);
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools[0]!.inputSchema)).toContain('pattern');
  });
});
