import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { serveStatelessMcpHttp, type StatelessMcpHttp } from '../fixtures/servers/statelessMcpHttp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const API_KEY = 'urlKEY-7d3f9a2c';

let gateway: TestGateway;
let api: AdminApi;
let upstream: StatelessMcpHttp;
/** The query strings the upstream was reached with. */
const reached: string[] = [];

beforeAll(async () => {
  upstream = await serveStatelessMcpHttp((req) => {
    reached.push(new URL(req.url!, 'http://x').search);
    const mcp = new McpServer({ name: 'keyed', version: '1.0.0' });
    mcp.registerTool('ping', { description: 'Answers pong', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
    return mcp;
  });
  gateway = await startTestGateway();
  api = adminApi(gateway);
});
afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

describe('a PATCH that sends back what the API showed', () => {
  it('keeps the credential the view showed as [redacted] instead of saving the mask', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'keyed', transport: 'http', url: `${upstream.url}?api_key=${API_KEY}` });
    expect(created.status).toBe(201);
    const shown = created.body.server;
    expect(shown.url).toBe(`${upstream.url}?api_key=[redacted]`);

    // What the admin page's editor sends: every field as the view showed it, one of them changed.
    const edited = await api.patch(`/api/mcp/servers/${shown.id}`, { name: 'keyed again', transport: 'http', url: shown.url, headers: [], enabled: true });
    expect(edited.status).toBe(200);
    reached.length = 0;
    const test = await api.post(`/api/mcp/servers/${shown.id}/test`);
    expect(test.body.ok).toBe(true);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.every((search) => search === `?api_key=${API_KEY}`)).toBe(true);

    // A masked value that is not the saved one's view stands for nothing the gateway knows.
    const guessed = await api.patch(`/api/mcp/servers/${shown.id}`, { url: `${upstream.url}?token=[redacted]` });
    expect(guessed.status).toBe(400);
    expect(guessed.body.error.message).toBe(
      'url: holds "[redacted]", which stands for a saved secret the API does not show; send the real value, or leave url out to keep the saved one.',
    );
  });
});

describe("a configured value that is also one of the gateway's own words", () => {
  it('is scrubbed from what upstreams say, not from the server states the page reads', async () => {
    const created = await api.post('/api/mcp/servers', { name: 'flagged', transport: 'stdio', command: process.execPath, args: ['-e', ''], env: [{ key: 'FLAG', value: 'disabled' }] });
    expect(created.status).toBe(201);
    const { servers } = (await api.get('/api/mcp/servers')).body;
    const flagged = servers.find((s: any) => s.id === created.body.server.id);
    expect(flagged).toMatchObject({ transport: 'stdio', enabled: false, connection: { state: 'disabled' } });
    expect(created.body.server.connection.state).toBe('disabled');
  });
});
