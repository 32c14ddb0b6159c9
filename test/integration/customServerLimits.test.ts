import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CustomServerFileStore } from '../../storage/index.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
});

const DEFAULTS = { concurrency: 1, queueDepth: 8, queueTimeoutMs: 20_000, maxResponseBytes: 5_000_000, minTimeMs: 0 };
const saved = async (id: string) => (await (await CustomServerFileStore.open(gateway.dataDir)).load()).find((s) => s.id === id)!;

describe('per-server limits: validated, saved, shown', () => {
  it.each([
    [{ concurrency: 0 }, 'limits.concurrency', /must be at least 1/],
    [{ concurrency: 2.5 }, 'limits.concurrency', /whole number/],
    [{ queueDepth: -1 }, 'limits.queueDepth', /at least 0/],
    [{ queueTimeoutMs: 600_001 }, 'limits.queueTimeoutMs', /at most 600000/],
    [{ maxResponseBytes: 100_000_001 }, 'limits.maxResponseBytes', /at most 100000000/],
    [{ minTimeMs: 'fast' }, 'limits.minTimeMs', /whole number of milliseconds/],
  ])('%j is refused on create and update, naming the field', async (limits, field, message) => {
    const created = await api.post('/api/mcp/servers', { name: `bad limits ${field} ${JSON.stringify(limits)}`, ...everythingStdio(), limits });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'invalid_input', details: { field } });
    expect(created.body.error.message).toMatch(message);
    const { body } = await api.post('/api/mcp/servers', { name: `ok limits ${field} ${JSON.stringify(limits)}`, ...everythingStdio() });
    const patched = await api.patch(`/api/mcp/servers/${body.server.id}`, { limits });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual({ field });
  });

  it('an unknown limit is refused', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'unknown limit', ...everythingStdio(), limits: { burst: 3 } });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toMatch(/burst/);
  });

  it('defaults are shown until set; an edit changes only the named fields; null restores defaults', async () => {
    const plain = await api.post('/api/mcp/servers', { name: 'default limits', ...everythingStdio() });
    expect(plain.body.server.limits).toEqual({ ...DEFAULTS, custom: [] });
    expect((await saved(plain.body.server.id)).limits).toBeUndefined();

    const created = await api.post('/api/mcp/servers', { name: 'own limits', ...everythingStdio(), limits: { concurrency: 4, minTimeMs: 250 } });
    expect(created.status).toBe(201);
    const id: string = created.body.server.id;
    expect(created.body.server.limits).toEqual({ ...DEFAULTS, concurrency: 4, minTimeMs: 250, custom: ['concurrency', 'minTimeMs'] });
    expect((await saved(id)).limits).toEqual({ concurrency: 4, minTimeMs: 250 });

    const deeper = await api.patch(`/api/mcp/servers/${id}`, { limits: { queueDepth: 32, minTimeMs: null } });
    expect(deeper.body.server.limits).toEqual({ ...DEFAULTS, concurrency: 4, queueDepth: 32, custom: ['concurrency', 'queueDepth'] });
    expect((await api.get(`/api/mcp/servers/${id}`)).body.server.limits.queueDepth).toBe(32);
    expect((await api.patch(`/api/mcp/servers/${id}`, { name: 'own limits renamed' })).body.server.limits.concurrency).toBe(4);

    const reset = await api.patch(`/api/mcp/servers/${id}`, { limits: null });
    expect(reset.body.server.limits).toEqual({ ...DEFAULTS, custom: [] });
    expect((await saved(id)).limits).toBeUndefined();
  });

  it('the source manifest carries the limits (catalog API)', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'manifest limits', ...everythingStdio(), limits: { maxResponseBytes: 65_536, queueTimeoutMs: 1500 } });
    const { body } = await api.get(`/api/catalog/sources/${created.body.server.id}`);
    expect(body.source.manifest.limits).toMatchObject({ concurrency: 1, queueDepth: 8, maxResponseBytes: 65_536, queueTimeoutMs: 1500 });
  });
});

describe('per-server limits govern the calls', () => {
  const longCall = (agent: Client, name: string, durationSeconds: number, signal?: AbortSignal) =>
    agent.callTool({ name, arguments: { duration: durationSeconds, steps: 1 } }, undefined, { signal, timeout: 120_000 }) as Promise<any>;

  it('the seed defaults answer queue_full past 1 running + 8 queued; raised to 16, sixteen calls run at once', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'busy everything', ...everythingStdio(), enabled: true });
    const id: string = created.body.server.id;
    const toolOf = (server: any) => server.tools.find((t: any) => t.upstreamName === 'trigger-long-running-operation').name;
    const agent = await gateway.connect({ name: 'agent-limits' });
    await allowEverything(api, (await api.sessionOf('agent-limits')).id);
    const limiter = async () => (await api.get(`/api/catalog/sources/${id}/status`)).body.limiter;

    const stop = new AbortController();
    const held = Array.from({ length: 9 }, () => longCall(agent, toolOf(created.body.server), 60, stop.signal).catch(() => undefined));
    await vi.waitFor(async () => expect(await limiter()).toMatchObject({ running: 1, queued: 8 }), { timeout: 60_000, interval: 50 });
    const refused = await longCall(agent, toolOf(created.body.server), 1);
    expect(refused.structuredContent.error).toMatchObject({ code: 'queue_full', retryable: true });
    stop.abort();
    await Promise.all(held);
    await vi.waitFor(async () => expect(await limiter()).toMatchObject({ running: 0, queued: 0 }), { timeout: 60_000, interval: 50 });

    const raised = await api.patch(`/api/mcp/servers/${id}`, { limits: { concurrency: 16, queueDepth: 0 } });
    expect(raised.body.server.limits).toMatchObject({ concurrency: 16, queueDepth: 0 });
    const name = toolOf(raised.body.server);
    const results = await Promise.all(Array.from({ length: 16 }, () => longCall(agent, name, 2)));
    expect(results.map((r) => r.structuredContent?.error?.code ?? 'ok')).toEqual(Array(16).fill('ok'));
  }, 180_000);

  it('calls running when their server is edited finish on the old connections; the next calls run with the edit', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'edited mid-call', ...everythingStdio(), enabled: true, limits: { concurrency: 4 } });
    const id: string = created.body.server.id;
    const toolOf = (server: any) => server.tools.find((t: any) => t.upstreamName === 'trigger-long-running-operation').name;
    const agent = await gateway.connect({ name: 'agent-edit' });
    const session = await api.sessionOf('agent-edit');
    await allowEverything(api, session.id);
    // One call over the Session's own connection (the server asks for roots), one over the shared one (the Inspector).
    const running = longCall(agent, toolOf(created.body.server), 4);
    const inspected = api.post(`/api/mcp/servers/${id}/inspect`, { sessionId: session.id, toolId: 'trigger-long-running-operation', arguments: { duration: 4, steps: 1 } });
    await vi.waitFor(async () => expect((await api.get(`/api/catalog/sources/${id}/status`)).body.limiter).toMatchObject({ running: 2 }), { timeout: 60_000, interval: 50 });

    const edited = await api.patch(`/api/mcp/servers/${id}`, { name: 'edited mid-call, renamed', timeoutSeconds: 120, limits: { concurrency: 2 } });
    expect(edited.status).toBe(200);
    // The next call moves the Session to a connection with the edit while the first still runs.
    const next = await longCall(agent, toolOf(edited.body.server), 1);
    expect(next.isError).toBeFalsy();
    // Until now an edit closed the connections under them: tool_unavailable, "was stopped while this call ran".
    const finished = await running;
    expect(finished.structuredContent?.error).toBeUndefined();
    expect(finished.isError).toBeFalsy();
    expect((await inspected).body).toMatchObject({ ok: true, error: null });
    expect((await api.get(`/api/catalog/sources/${id}`)).body.source.manifest.limits).toMatchObject({ concurrency: 2, timeoutSeconds: 120 });
  }, 180_000);
});
