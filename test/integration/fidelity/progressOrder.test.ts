import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { adminApi, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

const fidelityServer = fileURLToPath(new URL('../../fixtures/servers/fidelityServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'Progress', transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await gateway?.dispose();
});

describe('progress never goes backwards (MCP: progress MUST increase)', () => {
  it("scigate's own 'waiting for the user' progress, then an upstream's that starts at 0: what the client sees increases", async () => {
    const agent = await gateway.connect({ name: 'agent-progress' });
    await agent.listTools();
    const session = await api.sessionOf('agent-progress');
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const call = agent.callTool({ name: 'mcp__progress__count', arguments: {} }, undefined, {
      onprogress: (p) => void seen.push(p),
      timeout: 120_000,
    });
    const pending = await vi.waitFor(
      async () => {
        const { body } = await api.get(`/api/sessions/${session.id}/permission-requests?status=pending`);
        if (!body.requests[0]) throw new Error('no pending request yet');
        return body.requests[0];
      },
      { timeout: 60_000, interval: 20 },
    );
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 60_000, interval: 20 });
    expect(seen[0]!.message).toBe(`Waiting for the user to allow the call to mcp__progress__count (request ${pending.id}).`);
    expect((await api.post(`/api/permission-requests/${pending.id}/decision`, { decision: 'allow_once' })).status).toBe(200);
    const result = (await call) as any;
    expect(result.isError).toBeFalsy();
    await vi.waitFor(() => expect(seen.length).toBe(4), { timeout: 60_000, interval: 20 });
    const values = seen.map((p) => p.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
    expect(seen.slice(1).map((p) => p.total)).toEqual([3, 3, 3]);
  });
});
