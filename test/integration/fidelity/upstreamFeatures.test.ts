import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { everythingStdio, startEverythingHttp, type RunningEverything } from '../../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';
import { sharedSchemaValidator } from '../../../gateway/core/index.js';

let gateway: TestGateway;
let api: AdminApi;
let http: RunningEverything;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [gateway, http] = await Promise.all([startTestGateway(), startEverythingHttp('streamableHttp')]);
  api = adminApi(gateway);
  for (const [label, config] of [['everything', everythingStdio()], ['everything-http', { transport: 'http', url: http.url }]] as const) {
    const created = await api.post('/api/mcp/servers', { name: label.replace('-', ' '), ...config, enabled: true });
    expect(created.status).toBe(201);
    ids[label] = created.body.server.id;
  }
}, 120_000);
afterAll(async () => {
  await gateway?.dispose();
  await http?.close();
});

/** The namespaced form of one of server-everything's URIs (or URI templates) on /mcp. */
const namespaced = (label: string, uri: string) => `scigate://${label}/${encodeURIComponent(uri).replace(/%7B/g, '{').replace(/%7D/g, '}')}`;
const text = (result: any) => (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
const FEATURES_DOC = 'demo://resource/static/document/features.md';

/**
 * Waits until `agent` (its tools allowed) reaches server-everything over a connection of its own:
 * the gateway learns that the server asks for roots from its first connection (server-everything
 * asks 350 ms after it starts), and only then gives each Session its own, answered with the
 * Session's workspace directory.
 */
async function untilOwnConnection(agent: Client, label: string, sessionId: string): Promise<void> {
  const workspace = pathToFileURL(`${join(gateway.dataDir, 'workspaces', sessionId)}/`).href;
  await expect
    .poll(async () => text(await agent.callTool({ name: `mcp__${label}__get-roots-list`, arguments: {} })), { timeout: 60_000, interval: 200 })
    .toContain(workspace);
}

describe.each([
  ['stdio', 'everything'],
  ['streamable HTTP', 'everything-http'],
])('server-everything over %s: resources, prompts and completions through /mcp', (_transport, label) => {
  it('declares resources with subscriptions, prompts and completions; lists and reads its resources and templates under scigate:// URIs', async () => {
    const agent = await gateway.connect({ name: `reader-${label}` });
    expect(agent.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: {}, completions: {} });
    const { resources } = await agent.listResources();
    const doc = resources.find((r) => r.uri === namespaced(label, FEATURES_DOC));
    expect(doc).toMatchObject({ name: 'features.md', mimeType: 'text/markdown' });
    const read = await agent.readResource({ uri: doc!.uri });
    expect(read.contents).toEqual([expect.objectContaining({ uri: doc!.uri, mimeType: 'text/markdown', text: expect.stringContaining('#') })]);

    const { resourceTemplates } = await agent.listResourceTemplates();
    const template = namespaced(label, 'demo://resource/dynamic/text/{resourceId}');
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(template);
    const expanded = await agent.readResource({ uri: template.replace('{resourceId}', '7') });
    expect((expanded.contents[0] as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource/);
    await agent.close();
  });

  it('lists its prompts as mcp__<server>__<prompt> and gets them with arguments; embedded resources come back under scigate:// URIs', async () => {
    const agent = await gateway.connect({ name: `prompter-${label}` });
    const names = (await agent.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([`mcp__${label}__simple-prompt`, `mcp__${label}__args-prompt`, `mcp__${label}__completable-prompt`]));
    const prompt = await agent.getPrompt({ name: `mcp__${label}__args-prompt`, arguments: { city: 'Lyon', state: 'Rhône' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: "What's weather in Lyon, Rhône?" });
    const embedded = await agent.getPrompt({ name: `mcp__${label}__resource-prompt`, arguments: { resourceType: 'Text', resourceId: '2' } });
    const resource = embedded.messages.map((m) => m.content).find((c) => c.type === 'resource') as { resource: { uri: string } };
    expect(resource.resource.uri).toBe(namespaced(label, 'demo://resource/dynamic/text/2'));
    await expect(agent.getPrompt({ name: `mcp__${label}__no-such-prompt` })).rejects.toThrow(/No single prompt named mcp__/);
    await agent.close();
  });

  it('completes prompt arguments and resource template variables', async () => {
    const agent = await gateway.connect({ name: `completer-${label}` });
    const department = await agent.complete({ ref: { type: 'ref/prompt', name: `mcp__${label}__completable-prompt` }, argument: { name: 'department', value: 'Eng' } });
    expect(department.completion.values).toEqual(['Engineering']);
    const person = await agent.complete({
      ref: { type: 'ref/prompt', name: `mcp__${label}__completable-prompt` },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(person.completion.values).toEqual(['David', 'Eve', 'Frank']);
    const id = await agent.complete({ ref: { type: 'ref/resource', uri: namespaced(label, 'demo://resource/dynamic/text/{resourceId}') }, argument: { name: 'resourceId', value: '3' } });
    expect(id.completion.values).toEqual(['3']);
    await agent.close();
  });

  it('a subscription gets notifications/resources/updated under the URI it subscribed with; a Session that did not subscribe gets none', async () => {
    const subscriber = await gateway.connect({ name: `subscriber-${label}` });
    const bystander = await gateway.connect({ name: `bystander-${label}` });
    const updated: string[] = [];
    const overheard: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void overheard.push(n.params.uri));
    // Each Session needs its own connection: the server's update toggle is per connection.
    for (const [client, name] of [[subscriber, `subscriber-${label}`], [bystander, `bystander-${label}`]] as const) {
      await client.listTools();
      const session = await api.sessionOf(name);
      await allowEverything(api, session.id);
      await untilOwnConnection(client, label, session.id);
    }
    const uri = namespaced(label, FEATURES_DOC);
    await subscriber.subscribeResource({ uri });
    await bystander.readResource({ uri });
    const toggle = `mcp__${label}__toggle-subscriber-updates`;
    expect(text(await subscriber.callTool({ name: toggle, arguments: {} }))).toContain('Started simulated resource updated');
    expect(text(await bystander.callTool({ name: toggle, arguments: {} }))).toContain('Started simulated resource updated');
    await expect.poll(() => updated.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    expect(new Set(updated)).toEqual(new Set([uri]));
    expect(overheard).toEqual([]);
    await subscriber.unsubscribeResource({ uri });
    await subscriber.callTool({ name: toggle, arguments: {} });
    await bystander.callTool({ name: toggle, arguments: {} });
    await subscriber.close();
    await bystander.close();
  });

  it("roots: a server asking for roots gets the Session's workspace directory, or the client's own roots when it declared them", async () => {
    const agent = await gateway.connect({ name: `rootless-${label}` });
    await agent.listTools();
    const session = await api.sessionOf(`rootless-${label}`);
    await allowEverything(api, session.id);
    await untilOwnConnection(agent, label, session.id);

    const rooted = await gateway.connect({ name: `rooted-${label}`, capabilities: { roots: {} } });
    rooted.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///srv/agent-project/', name: 'agent project' }] }));
    await rooted.listTools();
    await allowEverything(api, (await api.sessionOf(`rooted-${label}`)).id);
    const own = text(await rooted.callTool({ name: `mcp__${label}__get-roots-list`, arguments: {} }));
    expect(own).toContain('file:///srv/agent-project/');
    expect(own).not.toContain('/workspaces/');
    await agent.close();
    await rooted.close();
  });
});

describe.each(['everything', 'everything-http'])('/mcp/sources/<id> of %s', (label) => {
  it("declares what the server declared and serves its resources, prompts and completions under the server's own names", async () => {
    const client = new Client({ name: `one-source-${label}`, version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    const url = new URL(`${gateway.mcpUrl}/sources/${ids[label]}`);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} });
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(FEATURES_DOC);
    expect((await client.readResource({ uri: FEATURES_DOC })).contents[0]!.uri).toBe(FEATURES_DOC);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('args-prompt');
    const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Basel' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: "What's weather in Basel?" });
    const done = await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'S' } });
    expect(done.completion.values).toEqual(['Sales', 'Support']);
    await client.close();
  });
});

describe('resources of a source that is not there', () => {
  it('a read naming an unknown or disabled server is refused with what to do next', async () => {
    const agent = await gateway.connect({ name: 'stray-reader' });
    await expect(agent.readResource({ uri: 'scigate://no-such-server/demo%3A%2F%2Fx' })).rejects.toThrow(/No enabled source "no-such-server".*List the resources/);
    await agent.close();
  });
});
