import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { liveChildren } from '../../gateway/upstream/index.js';
import { freePort } from '../fixtures/freePort.js';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio, startEverythingHttp, type RunningEverything } from '../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const definitionServer = fileURLToPath(new URL('../fixtures/servers/definitionServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;
let http: RunningEverything;
let sse: RunningEverything;

beforeAll(async () => {
  [gateway, http, sse] = await Promise.all([startTestGateway(), startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([http?.close(), sse?.close()]);
});

const bodyFor = (transport: 'stdio' | 'http' | 'sse', name: string) =>
  transport === 'stdio' ? { name, ...everythingStdio() } : { name, transport, url: transport === 'http' ? http.url : sse.url };

describe('custom servers over every transport, against @modelcontextprotocol/server-everything', () => {
  it.each(['stdio', 'http', 'sse'] as const)('%s: created disabled, enabled → discovered, governed and callable by agents', async (transport) => {
    const created = await api.post('/api/mcp/servers', bodyFor(transport, `everything ${transport}`));
    expect(created.status).toBe(201);
    const id: string = created.body.server.id;
    expect(id).toMatch(/^custom-[0-9a-f]{12}$/);
    expect(created.body.server).toMatchObject({ enabled: false, timeoutSeconds: 60, connection: { state: 'disabled' }, tools: [] });

    const clientName = `agent-${transport}`;
    const agent = await gateway.connect({ name: clientName });
    const label = `everything-${transport}`;
    expect((await agent.listTools()).tools.some((t) => t.name.startsWith(`mcp__${label}__`))).toBe(false);

    const enabled = await api.patch(`/api/mcp/servers/${id}`, { enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.server.connection.state).toBe('ready');
    const echo = enabled.body.server.tools.find((t: any) => t.upstreamName === 'echo');
    // Readable: named from the server's display name; the stable id stays the Source ID everywhere else.
    expect(echo.name).toBe(`mcp__${label}__echo`);
    expect(echo.name.length).toBeLessThanOrEqual(64);

    const listed = (await agent.listTools()).tools.filter((t) => t.name.startsWith(`mcp__${label}__`));
    expect(listed.map((t) => t.name)).toContain(echo.name);
    expect(listed.every((t) => /^[a-zA-Z0-9_-]+$/.test(t.name) && t.name.length <= 64)).toBe(true);
    // The server's own hints are shown as it declared them (whether a call is dangerous stays scigate's decision).
    expect(listed.find((t) => t.name === echo.name)!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });

    await allowEverything(api, (await api.sessionOf(clientName)).id);
    const result = (await agent.callTool({ name: echo.name, arguments: { message: `hi over ${transport}` } })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toContain('Untrusted content from the custom MCP server');
    expect(result.content[1]).toEqual({ type: 'text', text: `Echo: hi over ${transport}` });
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta['scigate/invocation']).toMatchObject({ sourceId: id, untrusted: true });
  });

  it('image content blocks of a custom tool reach the agent unchanged, after the untrusted marker', async () => {
    const created = await api.post('/api/mcp/servers', { ...bodyFor('stdio', 'images'), enabled: true });
    const image = created.body.server.tools.find((t: any) => t.upstreamName === 'get-tiny-image');
    const agent = await gateway.connect({ name: 'agent-image' });
    await allowEverything(api, (await api.sessionOf('agent-image')).id);
    const result = (await agent.callTool({ name: image.name, arguments: {} })) as any;
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Untrusted content from the custom MCP server') });
    const block = result.content.find((c: any) => c.type === 'image');
    expect(block).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(block.data.length).toBeGreaterThan(100);
  });
});

describe('connection tests', () => {
  it('probe a disabled server on a separate client: HTTP 200, checks and tools, enablement unchanged, probe closed', async () => {
    const { body } = await api.post('/api/mcp/servers', bodyFor('stdio', 'probe me'));
    const before = liveChildren.size;
    const tested = await api.post(`/api/mcp/servers/${body.server.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(true);
    expect(tested.body.checks.map((c: any) => [c.name, c.ok])).toEqual([
      ['configuration', true], ['connect', true], ['list_tools', true], ['input_schemas', true],
    ]);
    expect(tested.body.tools.map((t: any) => t.name)).toContain('echo');
    expect(typeof tested.body.durationMs).toBe('number');
    expect(liveChildren.size).toBe(before);
    const after = await api.get(`/api/mcp/servers/${body.server.id}`);
    expect(after.body.server).toMatchObject({ enabled: false, connection: { state: 'disabled' }, lastTest: { ok: true }, tools: [] });
    const saved = await api.patch(`/api/mcp/servers/${body.server.id}`, { timeoutSeconds: 30 });
    expect(saved.body.server).toMatchObject({ timeoutSeconds: 30, lastTest: null });
  });

  it('a failing probe is still HTTP 200, with ok false and the failed check', async () => {
    const { body } = await api.post('/api/mcp/servers', { name: 'missing program', transport: 'stdio', command: '/nonexistent/scigate-test-program' });
    const tested = await api.post(`/api/mcp/servers/${body.server.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({ ok: false, message: expect.stringContaining('ENOENT') });
    const unset = await api.post('/api/mcp/servers', { ...bodyFor('stdio', 'unset variable'), env: [{ key: 'TOKEN', value: '$SCIGATE_TEST_UNSET_VARIABLE' }] });
    const probe = await api.post(`/api/mcp/servers/${unset.body.server.id}/test`);
    expect(probe.body.checks[0]).toMatchObject({ name: 'configuration', ok: false, message: expect.stringContaining('env.TOKEN refers to $SCIGATE_TEST_UNSET_VARIABLE') });
  });

  it('an http server nobody listens for is "could not be reached" with the refused connection named, not a bare "fetch failed"', async () => {
    const port = await freePort();
    const { body } = await api.post('/api/mcp/servers', { name: 'nobody home', transport: 'http', url: `http://127.0.0.1:${port}/mcp` });
    const tested = await api.post(`/api/mcp/servers/${body.server.id}/test`);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({
      ok: false, message: expect.stringContaining(`could not be reached (connect): fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`),
    });
  });

  it('an enabled server that cannot start is in the error state with the reason', async () => {
    const { body } = await api.post('/api/mcp/servers', { name: 'broken start', transport: 'stdio', command: '/nonexistent/x', enabled: true });
    expect(body.server.connection).toMatchObject({ state: 'error', message: expect.stringContaining('could not be reached') });
  });
});

describe('schema failures', () => {
  it('a tool whose input schema does not compile stays hidden from agents, with the reason in the catalog status', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'bad schema', transport: 'stdio', command: process.execPath, args: [definitionServer, '--broken'], enabled: true });
    const server = created.body.server;
    expect(server.tools.map((t: any) => t.upstreamName)).toEqual(['greet']);
    expect(server.hidden).toEqual([{ name: 'broken', reason: expect.stringContaining('input schema does not compile') }]);
    const status = await api.get(`/api/catalog/sources/${server.id}/status`);
    expect(status.body.hidden[0]).toMatchObject({ name: 'broken', reason: expect.stringContaining('does not compile') });
    const agent = await gateway.connect({ name: 'agent-schema' });
    const names = (await agent.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__bad-schema__'));
    expect(names).toEqual([server.tools[0].name]);
    const probe = await api.post(`/api/mcp/servers/${server.id}/test`);
    expect(probe.body.ok).toBe(false);
    expect(probe.body.checks.at(-1)).toMatchObject({ name: 'input_schemas', ok: false, message: expect.stringContaining('broken') });
    expect(probe.body.tools.find((t: any) => t.name === 'broken')).toMatchObject({ ok: false, reason: expect.stringContaining('does not compile') });
  });
});
