import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sharedSchemaValidator } from '../../gateway/core/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Answers nested 100,000 levels deep: JSON.parse reads them, but JSON.stringify, the audit's hash
// and Ajv recurse and overflow the stack. Before the depth check, a tools/call ended as `internal`
// and a relayed resources/read or prompts/get was never answered (the client timed out).
const deepServer = fileURLToPath(new URL('../fixtures/servers/deepResultServer.mjs', import.meta.url));
const DEPTH_REFUSAL = /returned a (tools\/call|resources\/read|prompts\/get|tools\/list) result nested more than 256 levels deep; it is refused unread/;
let gateway: TestGateway;
let api: AdminApi;
let deepId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'Deep', transport: 'stdio', command: process.execPath, args: [deepServer], enabled: true });
  expect(created.status).toBe(201);
  deepId = created.body.server.id;
});
afterAll(async () => {
  await gateway?.dispose();
});

describe('an upstream answer nested past what the gateway can serialize', () => {
  it('a tools/call result ends as upstream_error naming the depth (also under an outputSchema), and the gateway keeps serving', async () => {
    const agent = await gateway.connect({ name: 'agent-deep' });
    const session = await api.sessionOf('agent-deep');
    await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    for (const tool of ['deep', 'deep_meta']) {
      const result = (await agent.callTool({ name: `mcp__deep__${tool}`, arguments: {} })) as any;
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ code: 'upstream_error', message: expect.stringMatching(DEPTH_REFUSAL) });
    }
    const typed = (await agent.callTool({ name: 'mcp__deep__typed', arguments: {} })) as any;
    expect(typed._meta['scigate/invocation'].error).toMatchObject({
      code: 'upstream_error',
      message: expect.stringMatching(/result for typed does not match the outputSchema the tool declares: it nests more than 256 levels deep$/),
    });
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('mcp__deep__deep');
    const { body } = await api.get(`/api/sessions/${session.id}/invocations`);
    expect(body.invocations.map((i: any) => i.errorCode)).not.toContain('internal');
  });

  it('a relayed resources/read or prompts/get is answered at once with the reason, not left waiting', async () => {
    const client = new Client({ name: 'deep-relay', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    const headers = { authorization: `Bearer ${gateway.token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.mcpUrl}/sources/${deepId}`), { requestInit: { headers } }));
    // One "MCP error -32603: " prefix: the client's own (featureHandlers.ts sends the message bare).
    // The server is named as the admin named it, then by its Source ID.
    const refusal = (method: string) => new RegExp(`^MCP error -32603: "Deep" \\(custom-[0-9a-f]+\\) returned a ${method} result nested more than 256 levels deep; it is refused unread$`);
    await expect(client.readResource({ uri: 'deep://one' })).rejects.toThrow(refusal('resources/read'));
    await expect(client.getPrompt({ name: 'deep' })).rejects.toThrow(refusal('prompts/get'));
    await client.close();
  });

  it('a tools/list that deep fails that server\'s discovery with the reason; the agents\' tools/list still answers', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'Deep list', transport: 'stdio', command: process.execPath, args: [deepServer, '--deep-list'], enabled: true });
    expect(created.body.server.connection).toMatchObject({ state: 'error', message: expect.stringMatching(DEPTH_REFUSAL) });
    const agent = await gateway.connect({ name: 'agent-deep-list' });
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__deep__deep');
    expect(names.filter((n) => n.startsWith('mcp__deep_list__'))).toEqual([]);
  });
});
