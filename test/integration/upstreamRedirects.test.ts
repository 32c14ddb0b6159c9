import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { GatewayError, silentLogger, systemClock } from '../../gateway/core/index.js';
import { UpstreamClient } from '../../gateway/upstream/index.js';

// A custom http server's endpoint answering with a redirect. fetch used to follow any redirect with
// every configured header: to another origin (here a second loopback port that records what reaches
// it) the admin's API key went along, and the answer was read back as MCP.
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback HTTP server that answers every request with `status` and `Location: <location(port)>`, recording the headers it got. */
async function redirecting(status: number, location: (ownPort: number) => string): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(status, { location: location((server.address() as AddressInfo).port) }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

/**
 * An echo MCP endpoint at /mcp on 127.0.0.1, whose server also answers /old with 307 to /mcp,
 * /permanent with 308 to /mcp, /moved with 302 to /mcp and /loop with 307 to itself.
 */
async function echoWithRedirects(): Promise<string> {
  const redirects: Record<string, [number, string]> = { '/old': [307, '/mcp'], '/permanent': [308, '/mcp'], '/moved': [302, '/mcp'], '/loop': [307, '/loop'] };
  const server: Server = createServer(async (req, res) => {
    const redirect = redirects[req.url ?? ''];
    if (redirect) return void (req.resume(), res.writeHead(redirect[0], { location: redirect[1] }).end());
    const mcp = new McpServer({ name: 'echo', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'echo' }, async () => ({ content: [{ type: 'text', text: 'here' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientOf(url: string): UpstreamClient {
  const client = new UpstreamClient({ id: 'redirecting', target: { kind: 'http', url, headers: { 'x-api-key': 'admin-secret-key' } }, log: silentLogger, clock: systemClock });
  closers.push(() => client.close());
  return client;
}

describe("a custom HTTP server's redirects", () => {
  it('to another origin: refused before any request goes there, saying what to set', async () => {
    const elsewhere = await redirecting(200, () => '');
    const front = await redirecting(307, () => elsewhere.url);
    const error = await clientOf(front.url).listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).message).toMatch(
      /^redirecting: its URL redirects to http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP 307\), and scigate follows redirects only within http:\/\/127\.0\.0\.1:\d+: usually a sign-in or web page, not an MCP endpoint; set the server's URL to its MCP endpoint itself/,
    );
    expect(front.seen.length).toBeGreaterThan(0);
    expect(elsewhere.seen).toEqual([]);
  });

  it('within its origin, 307 and 308 are followed with method and body; other redirects and loops fail naming what to set', async () => {
    const origin = await echoWithRedirects();
    for (const path of ['/old', '/permanent']) expect((await clientOf(`${origin}${path}`).listTools()).map((t) => t.name)).toEqual(['echo']);
    const moved = await clientOf(`${origin}/moved`).listTools().catch((e: unknown) => e);
    expect((moved as GatewayError).message).toContain(`the server answered HTTP 302 (a redirect to /mcp) where an MCP endpoint answers; set the server's URL to ${origin}/mcp.`);
    const loop = await clientOf(`${origin}/loop`).listTools().catch((e: unknown) => e);
    expect(loop).toMatchObject({ code: 'upstream_error', retryable: false, details: { reason: 'not_an_mcp_endpoint', redirect: 'loop' } });
    expect((loop as GatewayError).message).toBe(
      `redirecting: its URL redirects in a loop (more than 5 redirects within ${origin}), so it reaches no MCP endpoint; check the server's URL (set it to the MCP endpoint itself).`,
    );
  });
});
