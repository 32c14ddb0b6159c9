import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { watchListChanged } from '../../fixtures/custom/listChanged.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

const fidelityServer = fileURLToPath(new URL('../../fixtures/servers/fidelityServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
});

const create = async (name: string) => {
  const created = await api.post('/api/mcp/servers', { name, transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true });
  expect(created.status).toBe(201);
  return created.body.server;
};

describe('custom tools are named from the server display name (GATEWAY.md §3)', () => {
  it('mcp__<display name slug>__<tool>; the Source ID stays custom-<12 hex> in results, the API and the audit', async () => {
    const server = await create('Fidelity Lab');
    expect(server.tools.find((t: any) => t.upstreamName === 'add').name).toBe('mcp__fidelity-lab__add');
    const agent = await gateway.connect({ name: 'agent-readable' });
    expect((await agent.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__fidelity-lab__add', 'mcp__fidelity-lab__fail']));
    const session = await api.sessionOf('agent-readable');
    await allowEverything(api, session.id);
    const result = (await agent.callTool({ name: 'mcp__fidelity-lab__add', arguments: { a: 1, b: 1 } })) as any;
    expect(result.structuredContent).toEqual({ sum: 2 });
    const provenance = result._meta['scigate/invocation'];
    expect(provenance.sourceId).toBe(server.id);
    const row = (await api.get(`/api/sessions/${session.id}/invocations/${provenance.invocationId}`)).body;
    expect(JSON.stringify(row)).toContain(server.id);
  });

  it('a rename publishes tools/list_changed and the tools take the new name; the old name is gone', async () => {
    const server = await create('Before Rename');
    const agent = await gateway.connect({ name: 'agent-rename' });
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('mcp__before-rename__add');
    const changes = watchListChanged(agent);
    const changed = changes.next(20_000);
    const renamed = await api.patch(`/api/mcp/servers/${server.id}`, { name: 'After Rename' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.server.id).toBe(server.id);
    await changed;
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__after-rename__add');
    expect(names).not.toContain('mcp__before-rename__add');
    const old = (await agent.callTool({ name: 'mcp__before-rename__add', arguments: { a: 1, b: 2 } })) as any;
    expect(old.isError).toBe(true);
    expect(old.structuredContent.error.code).toBe('tool_unavailable');
  });

  it('a name whose slug is taken (by an older server or a built-in source) falls back to the Source ID', async () => {
    const first = await create('Twin Tools');
    const second = await create('twin  tools!');
    expect(first.tools.find((t: any) => t.upstreamName === 'add').name).toBe('mcp__twin-tools__add');
    const secondAdd = second.tools.find((t: any) => t.upstreamName === 'add');
    expect(secondAdd.name).toBe(`mcp__${second.id}__${secondAdd.toolId}`);
    const builtinTwin = await create('arXiv');
    expect(builtinTwin.tools[0].name.startsWith(`mcp__${builtinTwin.id}__`)).toBe(true);
    const agent = await gateway.connect({ name: 'agent-twins' });
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['mcp__twin-tools__add', secondAdd.name, 'mcp__arxiv__search']));
  });
});
