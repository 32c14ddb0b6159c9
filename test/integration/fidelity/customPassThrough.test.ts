import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

const fidelityServer = fileURLToPath(new URL('../../fixtures/servers/fidelityServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;
let server: any;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'fidelity', transport: 'stdio', command: process.execPath, args: [fidelityServer], enabled: true });
  expect(created.status).toBe(201);
  server = created.body.server;
});
afterAll(async () => {
  await gateway?.dispose();
});

const toolNamed = (upstreamName: string) => server.tools.find((t: any) => t.upstreamName === upstreamName);

describe('a custom tool reaches the agent as its server defined it (GATEWAY.md §3)', () => {
  it('tools/list keeps title, outputSchema, annotations, icons and _meta', async () => {
    const agent = await gateway.connect({ name: 'agent-definitions' });
    const add = (await agent.listTools()).tools.find((t) => t.name === toolNamed('add').name)!;
    expect(add.title).toBe('Add two numbers');
    expect(add.outputSchema).toEqual({ type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] });
    expect(add.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(add.icons).toEqual([{ src: 'https://example.org/add.png', mimeType: 'image/png' }]);
    expect(add._meta).toEqual({ 'example.org/cost': 'free' });
  });

  it('a tool that can only run as a task is not listed, and the catalog says why', async () => {
    expect(toolNamed('long-job')).toBeUndefined();
    expect(server.hidden).toContainEqual({ name: 'long-job', reason: expect.stringContaining('taskSupport "required"') });
    const agent = await gateway.connect({ name: 'agent-tasks' });
    expect((await agent.listTools()).tools.some((t) => t.name.includes('long'))).toBe(false);
  });

  it('structuredContent stays top-level (validated by the SDK client against the outputSchema); provenance is in _meta', async () => {
    const agent = await gateway.connect({ name: 'agent-structured' });
    await agent.listTools();
    await allowEverything(api, (await api.sessionOf('agent-structured')).id);
    const result = (await agent.callTool({ name: toolNamed('add').name, arguments: { a: 2, b: 3 } })) as any;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content[0].text).toContain('Untrusted content from the custom MCP server');
    expect(result.content[1]).toEqual({ type: 'text', text: '5' });
    expect(result._meta['example.org/trace']).toBe('t-1');
    const provenance = result._meta['scigate/invocation'];
    expect(provenance).toMatchObject({ sourceId: server.id, untrusted: true, invocationId: expect.stringMatching(/^inv_/) });
    const row = await api.get(`/api/sessions/${(await api.sessionOf('agent-structured')).id}/invocations/${provenance.invocationId}`);
    expect(row.status).toBe(200);
  });

  it("the server's isError result stays an isError result with its own content; scigate's errors keep their shape", async () => {
    const agent = await gateway.connect({ name: 'agent-errors' });
    await agent.listTools();
    await allowEverything(api, (await api.sessionOf('agent-errors')).id);
    const failed = (await agent.callTool({ name: toolNamed('fail').name, arguments: {} })) as any;
    expect(failed.isError).toBe(true);
    expect(failed.content[1]).toEqual({ type: 'text', text: 'the widget is jammed' });
    expect(failed.structuredContent).toEqual({ reason: 'jammed' });
    expect(failed._meta['scigate/invocation'].sourceId).toBe(server.id);

    const unknown = (await agent.callTool({ name: `${toolNamed('fail').name}_gone`, arguments: {} })) as any;
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent.error.code).toBe('tool_unavailable');
    // A tool with its own outputSchema: the SDK client checks structuredContent even on errors, so scigate's error is in _meta.
    const refused = (await agent.callTool({ name: toolNamed('add').name, arguments: { a: 'two' } })) as any;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    expect(refused._meta['scigate/invocation'].error).toMatchObject({ code: 'invalid_input' });
    expect(JSON.parse(refused.content[0].text).error.code).toBe('invalid_input');
  });
});
