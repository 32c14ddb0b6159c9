import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveChildren } from '../../gateway/upstream/index.js';
import { CustomServerFileStore } from '../../storage/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { startHeaderRecordingServer, type HeaderRecordingServer } from '../fixtures/custom/headerRecordingServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { waitUntil } from '../fixtures/cliProcess.js';

const definitionServer = fileURLToPath(new URL('../fixtures/servers/definitionServer.mjs', import.meta.url));

const ENV_SECRET = 'sk-env-3c9e1d77b2';
const HEADER_SECRET = 'Bearer hdr-51aa09f4e6';
const NEW_SECRET = 'sk-new-8e2b4410c5';
const log = captureLogger();
let gateway: TestGateway;
let api: AdminApi;
let recorder: HeaderRecordingServer;

beforeAll(async () => {
  [gateway, recorder] = await Promise.all([startTestGateway({}, undefined, { log }), startHeaderRecordingServer()]);
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
  await recorder?.close();
});

const saved = async (id: string) => (await (await CustomServerFileStore.open(gateway.dataDir)).load()).find((s) => s.id === id)!;
const encryptedFile = () => readFile(join(gateway.dataDir, 'custom-mcp-servers.enc'));

describe('redaction', () => {
  it('no env or header value appears in any response or log line', async () => {
    const stdio = await api.post('/api/mcp/servers', { name: 'redacted stdio', ...everythingStdio(), env: [{ key: 'API_KEY', value: ENV_SECRET }] });
    const http = await api.post('/api/mcp/servers', { name: 'redacted http', transport: 'http', url: recorder.url, headers: [{ key: 'Authorization', value: HEADER_SECRET }] });
    expect(stdio.body.server.env).toEqual([{ key: 'API_KEY', value: null }]);
    expect(http.body.server.headers).toEqual([{ key: 'Authorization', value: null }]);
    const responses = [
      stdio, http,
      await api.get('/api/mcp/servers'),
      await api.get(`/api/mcp/servers/${stdio.body.server.id}`),
      await api.patch(`/api/mcp/servers/${http.body.server.id}`, { enabled: true, headers: [{ key: 'Authorization', value: null }] }),
      await api.post(`/api/mcp/servers/${http.body.server.id}/test`),
      await api.post('/api/mcp/servers/import', { mcpServers: { imported: { command: 'node', env: { API_KEY: ENV_SECRET } } } }),
      await api.post('/api/mcp/servers', { name: 'redacted stdio', ...everythingStdio(), env: [{ key: 'API_KEY', value: ENV_SECRET }] }),
    ];
    expect(recorder.requests.some((h) => h.authorization === HEADER_SECRET)).toBe(true);
    for (const response of responses) {
      expect(response.text).not.toContain(ENV_SECRET);
      expect(response.text).not.toContain(HEADER_SECRET);
    }
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.filter((line) => line.includes(ENV_SECRET) || line.includes(HEADER_SECRET))).toEqual([]);
  });

  it('a stdio server that prints its secret to stderr does not get it into the gateway log', async () => {
    const { body } = await api.post('/api/mcp/servers', {
      name: 'leaky', transport: 'stdio', command: process.execPath, args: [definitionServer, '--leak-env', 'LEAKY'], env: [{ key: 'LEAKY', value: ENV_SECRET }], enabled: true,
    });
    expect(body.server.connection.state).toBe('ready');
    expect(await waitUntil(() => log.lines.some((line) => line.includes('starting with LEAKY=[redacted]')))).toBe(true);
    expect(log.lines.filter((line) => line.includes(ENV_SECRET))).toEqual([]);
  });
});

describe('validation (400 naming the field)', () => {
  it('names are unique case-insensitively, on create, update and import', async () => {
    const alpha = await api.post('/api/mcp/servers', { name: 'Alpha Lab', ...everythingStdio() });
    expect(alpha.status).toBe(201);
    const clash = await api.post('/api/mcp/servers', { name: 'ALPHA lab', ...everythingStdio() });
    expect(clash.status).toBe(400);
    expect(clash.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^name: the name "ALPHA lab" is already used by "Alpha Lab"/), details: { field: 'name' } });
    const other = await api.post('/api/mcp/servers', { name: 'Beta Lab', ...everythingStdio() });
    expect((await api.patch(`/api/mcp/servers/${other.body.server.id}`, { name: 'alpha LAB' })).body.error.message).toMatch(/^name: /);
    const imported = await api.post('/api/mcp/servers/import', { mcpServers: { 'alpha lab': { command: 'node' } } });
    expect(imported.body.error.message).toMatch(/^mcpServers\.alpha lab: the name/);
  });

  it.each([0, 601])('timeout %i is refused on create and update', async (timeoutSeconds) => {
    const created = await api.post('/api/mcp/servers', { name: `timeout ${timeoutSeconds}`, ...everythingStdio(), timeoutSeconds });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'invalid_input', details: { field: 'timeoutSeconds' } });
    expect(created.body.error.message).toMatch(/^timeoutSeconds: must be at (least 1 second|most 600 seconds)/);
    const { body } = await api.post('/api/mcp/servers', { name: `timeout ok ${timeoutSeconds}`, ...everythingStdio() });
    const patched = await api.patch(`/api/mcp/servers/${body.server.id}`, { timeoutSeconds });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual({ field: 'timeoutSeconds' });
  });
});

describe('atomic import', () => {
  it('one bad entry saves nothing; a good batch saves everything, disabled, and runs nothing', async () => {
    const before = (await api.get('/api/mcp/servers')).body.servers.length;
    const fileBefore = await encryptedFile();
    const bad = await api.post('/api/mcp/servers/import', {
      mcpServers: {
        'import one': { command: 'node', args: ['a.js'] },
        'import two': { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        'import three': { url: 'ftp://example.org/mcp' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^mcpServers\.import three\.url: /);
    expect((await api.get('/api/mcp/servers')).body.servers).toHaveLength(before);
    expect((await encryptedFile()).equals(fileBefore)).toBe(true);

    const dup = await api.post('/api/mcp/servers/import', { mcpServers: { 'Same Name': { command: 'a' }, 'same name': { command: 'b' } } });
    expect(dup.body.error.message).toMatch(/^mcpServers\.same name: /);
    expect((await api.get('/api/mcp/servers')).body.servers).toHaveLength(before);

    const children = liveChildren.size;
    const good = await api.post('/api/mcp/servers/import', {
      mcpServers: {
        'everything (claude)': { command: everythingStdio().command, args: everythingStdio().args, disabled: false },
        'remote (cursor)': { url: recorder.url, headers: { 'X-Api-Key': 'k' } },
        'remote (vscode)': { type: 'sse', url: 'http://127.0.0.1:9/sse' },
      },
    });
    expect(good.status).toBe(201);
    expect(good.body.servers.map((s: any) => [s.name, s.transport, s.enabled, s.connection.state])).toEqual([
      ['everything (claude)', 'stdio', false, 'disabled'],
      ['remote (cursor)', 'http', false, 'disabled'],
      ['remote (vscode)', 'sse', false, 'disabled'],
    ]);
    expect(liveChildren.size).toBe(children);
    expect((await api.get('/api/mcp/servers')).body.servers).toHaveLength(before + 3);
  });

  it('a name given twice in the file imports the last entry, as Claude Desktop reads it, and the answer says which', async () => {
    const text = '{"mcpServers": {"twice": {"command": "first"}, "once": {"command": "node"}, "twice": {"command": "second"}}}';
    const sent = await request(gateway.url).post('/api/mcp/servers/import')
      .set('authorization', `Bearer ${gateway.token}`).set('content-type', 'application/json').send(text);
    expect(sent.status).toBe(201);
    expect(sent.body.servers.map((s: any) => [s.name, s.command])).toEqual([['twice', 'second'], ['once', 'node']]);
    expect(sent.body.warnings).toEqual([expect.stringContaining('"twice" appears 2 times in "mcpServers": only the last entry was imported')]);
    expect((await api.post('/api/mcp/servers/import', { mcpServers: { 'no repeats': { command: 'node' } } })).body.warnings).toEqual([]);
  });

  it('a whole mcpServers document sent to the route for one server is refused, pointing to the import route', async () => {
    const before = (await api.get('/api/mcp/servers')).body.servers.length;
    const sent = await api.post('/api/mcp/servers', { mcpServers: { misplaced: { command: 'node' } } });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({ code: 'invalid_input', details: { field: 'mcpServers' } });
    expect(sent.body.error.message).toContain('/api/mcp/servers/import');
    expect((await api.get('/api/mcp/servers')).body.servers).toHaveLength(before);
  });
});

const secretCases = [
  { field: 'env' as const, a: 'API_KEY', b: 'REGION', renamed: 'TOKEN' },
  { field: 'headers' as const, a: 'X-Api-Key', b: 'X-Region', renamed: 'X-Token' },
];

describe.each(secretCases)('$field secret editing through the API', ({ field, a, b, renamed }) => {
  it('unchanged preservation, blocked rename, re-entry, restoring the original name, explicit clearing', async () => {
    const body = field === 'env'
      ? { name: `secrets ${field}`, ...everythingStdio(), env: [{ key: a, value: ENV_SECRET }, { key: b, value: 'eu' }] }
      : { name: `secrets ${field}`, transport: 'http', url: recorder.url, headers: [{ key: a, value: ENV_SECRET }, { key: b, value: 'eu' }] };
    const id = (await api.post('/api/mcp/servers', body)).body.server.id;
    const values = async () => (await saved(id) as any)[field] as Record<string, string>;
    const patch = (entries: unknown[]) => api.patch(`/api/mcp/servers/${id}`, { [field]: entries });

    expect((await patch([{ key: a, value: null }, { key: b, value: null }])).status).toBe(200);
    expect(await values()).toEqual({ [a]: ENV_SECRET, [b]: 'eu' });

    const blocked = await patch([{ key: renamed, value: null, originalKey: a }, { key: b, value: null }]);
    expect(blocked.status).toBe(400);
    expect(blocked.body.error).toMatchObject({ details: { field: `${field}.${renamed}` } });
    const swapped = await patch([{ key: b, value: null, originalKey: a }, { key: a, value: null, originalKey: b }]);
    expect(swapped.status).toBe(400);
    expect(await values()).toEqual({ [a]: ENV_SECRET, [b]: 'eu' });

    expect((await patch([{ key: a, value: null, originalKey: a }])).status).toBe(200);
    expect(await values()).toEqual({ [a]: ENV_SECRET });

    expect((await patch([{ key: renamed, value: NEW_SECRET, originalKey: a }])).status).toBe(200);
    expect(await values()).toEqual({ [renamed]: NEW_SECRET });

    expect((await patch([{ key: renamed, value: 'edited', originalKey: renamed }])).status).toBe(200);
    expect(await values()).toEqual({ [renamed]: 'edited' });

    expect((await patch([{ key: renamed, value: '' }])).status).toBe(200);
    expect(await values()).toEqual({ [renamed]: '' });
    expect((await patch([])).status).toBe(200);
    expect(await values()).toEqual({});
  });
});

describe('headers reach the server', () => {
  it('saved and $NAME header values are sent at connect time; values stay out of responses', async () => {
    const gatewayWithEnv = await startTestGateway({ SCIGATE_TEST_HEADER_TOKEN: 'resolved-from-env-77' });
    try {
      const other = adminApi(gatewayWithEnv);
      const { body } = await other.post('/api/mcp/servers', {
        name: 'header check', transport: 'http', url: recorder.url,
        headers: [{ key: 'X-Static', value: 'static-value' }, { key: 'Authorization', value: '$SCIGATE_TEST_HEADER_TOKEN' }],
      });
      const tested = await other.post(`/api/mcp/servers/${body.server.id}/test`);
      expect(tested.body.ok).toBe(true);
      expect(recorder.requests.at(-1)).toMatchObject({ 'x-static': 'static-value', authorization: 'resolved-from-env-77' });
      expect(tested.text).not.toContain('resolved-from-env-77');
    } finally {
      await gatewayWithEnv.dispose();
    }
  });
});

describe('the 50-server cap', () => {
  it('the 51st server is refused, by create and by import, and nothing is saved', async () => {
    const existing = (await api.get('/api/mcp/servers')).body.servers.length;
    expect(existing).toBeLessThan(50);
    for (let i = existing; i < 50; i++) {
      expect((await api.post('/api/mcp/servers', { name: `filler ${i}`, transport: 'stdio', command: 'node' })).status).toBe(201);
    }
    const fifty = await encryptedFile();
    const created = await api.post('/api/mcp/servers', { name: 'number 51', transport: 'stdio', command: 'node' });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('At most 50 custom servers') });
    const imported = await api.post('/api/mcp/servers/import', { mcpServers: { 'number 51': { command: 'node' } } });
    expect(imported.status).toBe(400);
    expect(imported.body.error.message).toContain('At most 50 custom servers');
    expect((await api.get('/api/mcp/servers')).body.servers).toHaveLength(50);
    expect((await encryptedFile()).equals(fifty)).toBe(true);
  });
});
