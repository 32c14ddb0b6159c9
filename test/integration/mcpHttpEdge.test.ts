import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { silentLogger } from '../../gateway/core/index.js';
import { createMcpHttpEdge } from '../../gateway/listener/mcpHttpEdge.js';

const TOKEN = 'tok-edge-0123456789';
let server: Server;
let base: string;
/** What reached the router's Node entry and what was left to express. */
const handled: string[] = [];
const leftToExpress: string[] = [];

beforeAll(async () => {
  const edge = createMcpHttpEdge({
    token: () => TOKEN,
    allowedHosts: ['127.0.0.1', 'localhost'],
    log: silentLogger,
    mcp: {
      handle: (req, res) => {
        if (!/^\/mcp(\/sources\/[^/?]+)?\/?(\?.*)?$/.test(req.url ?? '')) return false;
        handled.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return true;
      },
    },
  });
  server = createServer((req, res) => {
    if (edge(req, res)) return;
    leftToExpress.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

describe('the /mcp edge before express', () => {
  it('serves /mcp and /mcp/sources/<id> itself once the bearer and host guards pass; other paths go to express', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const path of ['/mcp', '/mcp/', '/mcp?project=p1', '/mcp/sources/arxiv', '/mcp/sources/arxiv/']) expect((await post(path, auth)).status).toBe(200);
    expect(handled).toEqual(['/mcp', '/mcp/', '/mcp?project=p1', '/mcp/sources/arxiv', '/mcp/sources/arxiv/']);
    for (const path of ['/api/sessions', '/mcpx', '/MCP', '/mcp/sources/']) expect((await post(path, auth)).status).toBe(404);
    expect(leftToExpress).toEqual(['/api/sessions', '/mcpx', '/MCP', '/mcp/sources/']);
  });

  it('refuses a missing or wrong token with 401 and a JSON-RPC error, never reaching the router', async () => {
    const before = handled.length;
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
      const answer = await post('/mcp', headers);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="scigate"');
      const body = (await answer.json()) as { jsonrpc: string; error: { code: number; message: string; data: { code: string } }; id: null };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { code: 'unauthorized' } } });
      expect(body.error.message).toMatch(/scigate token/);
    }
    expect(handled.length).toBe(before);
  });

  it('refuses a foreign Origin (DNS rebinding) with 403 and a JSON-RPC error naming --allowed-hosts', async () => {
    const answer = await post('/mcp', { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: { code: number; message: string; data: { code: string } } };
    expect(body.error).toMatchObject({ code: -32001, data: { code: 'forbidden' } });
    expect(body.error.message).toMatch(/--allowed-hosts/);
  });
});
