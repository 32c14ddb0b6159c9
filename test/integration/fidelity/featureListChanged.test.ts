import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { captureLogger } from '../../fixtures/custom/captureLogger.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

const notesServer = fileURLToPath(new URL('../../fixtures/servers/notesServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;
let server: any;
const log = captureLogger();

beforeAll(async () => {
  gateway = await startTestGateway({}, undefined, { log });
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'notes', transport: 'stdio', command: process.execPath, args: [notesServer], enabled: true });
  expect(created.status).toBe(201);
  server = created.body.server;
}, 120_000);
afterAll(async () => {
  await gateway?.dispose();
});

describe("a custom server's resources and prompts change", () => {
  it('its resources and prompts list_changed reach the Session, whose next lists show the new ones', async () => {
    const agent = await gateway.connect({ name: 'note-taker' });
    let resourcesChanged = 0;
    let promptsChanged = 0;
    agent.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (resourcesChanged += 1));
    agent.setNotificationHandler(PromptListChangedNotificationSchema, () => void (promptsChanged += 1));
    expect((await agent.listResources()).resources.filter((r) => r.uri.startsWith('scigate://notes/'))).toEqual([]);
    expect((await agent.listPrompts()).prompts).toEqual([]);
    await agent.listTools();
    await allowEverything(api, (await api.sessionOf('note-taker')).id);

    await agent.callTool({ name: 'mcp__notes__add_note', arguments: { text: 'buffer pH 7.4' } });
    await expect.poll(() => resourcesChanged, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    await expect.poll(() => promptsChanged, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    const note = (await agent.listResources()).resources.find((r) => r.uri === 'scigate://notes/note%3A%2F%2F1');
    expect(note).toMatchObject({ name: 'note 1' });
    expect(await agent.readResource({ uri: note!.uri })).toEqual({ contents: [{ uri: note!.uri, mimeType: 'text/plain', text: 'buffer pH 7.4' }] });
    expect((await agent.listPrompts()).prompts.map((p) => p.name)).toEqual(['mcp__notes__note_1']);
    expect((await agent.getPrompt({ name: 'mcp__notes__note_1' })).messages[0]!.content).toEqual({ type: 'text', text: 'buffer pH 7.4' });
    // Each read and prompt get is logged with who asked (the Session), which source and what.
    const sessionId = (await api.sessionOf('note-taker')).id;
    const relayed = log.lines.map((line) => JSON.parse(line)).filter((l) => l.msg === 'relayed a request to a custom server');
    expect(relayed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sessionId, sourceId: server.id, kind: 'resources/read', target: 'note://1' }),
        expect.objectContaining({ sessionId, sourceId: server.id, kind: 'prompts/get', target: 'note_1' }),
      ]),
    );
    await agent.close();
  });

  it("a Session whose connector selection leaves the server out sees none of its resources or prompts", async () => {
    const agent = await gateway.connect({ name: 'narrow-selection' });
    const session = await api.sessionOf('narrow-selection');
    expect((await api.patch(`/api/sessions/${session.id}`, { connectors: ['arxiv'] })).status).toBe(200);
    expect((await agent.listResources()).resources.filter((r) => r.uri.startsWith('scigate://notes/'))).toEqual([]);
    expect((await agent.listPrompts()).prompts).toEqual([]);
    await expect(agent.readResource({ uri: 'scigate://notes/note%3A%2F%2F1' })).rejects.toThrow(/No enabled source "notes"/);
    await expect(agent.getPrompt({ name: 'mcp__notes__note_1' })).rejects.toThrow(/No enabled source serves prompts/);
    await agent.close();
  });

  it("once the server is disabled, its resources leave the list and a read of one says what happened", async () => {
    expect((await api.patch(`/api/mcp/servers/${server.id}`, { enabled: false })).status).toBe(200);
    const agent = await gateway.connect({ name: 'late-reader' });
    expect((await agent.listResources()).resources.filter((r) => r.uri.startsWith('scigate://notes/'))).toEqual([]);
    await expect(agent.readResource({ uri: 'scigate://notes/note%3A%2F%2F1' })).rejects.toThrow(/No enabled source "notes".*disabled, removed or is not selected/);
    await agent.close();
  });
});
