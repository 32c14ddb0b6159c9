import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';
import { GatewayError, silentLogger, systemClock } from '../../gateway/core/index.js';
import { UpstreamClient, messageBytesFor, sizeBoundedFetch, type UpstreamTarget } from '../../gateway/upstream/index.js';
import { isAlive, waitUntil } from '../fixtures/cliProcess.js';
import { serveHugeHttp, type HugeHttpServer } from '../fixtures/servers/hugeHttpServer.js';

const hostile = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));
const hugeToolList = fileURLToPath(new URL('../fixtures/servers/hugeToolListServer.mjs', import.meta.url));
const MAX_RESPONSE_BYTES = 5_000_000;
const clients: UpstreamClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(target: UpstreamTarget, extra: { maxConsecutiveFailures?: number; maxTimeoutsInARow?: number } = {}): UpstreamClient {
  const client = new UpstreamClient({
    id: 'hostile', target, log: silentLogger, clock: systemClock, maxMessageBytes: messageBytesFor(MAX_RESPONSE_BYTES), ...extra,
  });
  clients.push(client);
  return client;
}

const stdio = (...flags: string[]): UpstreamTarget => ({ kind: 'stdio', command: process.execPath, args: [hostile, ...flags], cwd: process.cwd() });
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('every byte a stdio upstream sends is bounded', () => {
  it('tools/list stops past 16 MiB of tool definitions over all pages, though each page is within the response limit', async () => {
    // One tool with a 6 MB description per page, always another page: the third passes 16 MiB.
    // Before the bound, 100 pages (600 MB) were read and the page limit refused them.
    const client = clientFor({ kind: 'stdio', command: process.execPath, args: [hugeToolList], cwd: process.cwd() });
    await expect(client.listTools()).rejects.toMatchObject({
      code: 'upstream_error',
      message: expect.stringMatching(/^hostile listed more than 16 MiB of tool definitions \(descriptions and schemas\); scigate reads no more, so its tools stay hidden$/),
    });
  });

  it('a 12 MB tool result fails that call with response_too_large, stops the server, and the next call restarts it', async () => {
    const client = clientFor(stdio());
    const pid = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    const error = await client.callTool('sized', { bytes: 12_000_000 }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('response_too_large');
    expect((error as GatewayError).message).toMatch(/more than 11048576 bytes/);
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);

    const again = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect(again).not.toBe(pid);
    expect(textOf(await client.callTool('sized', { bytes: 6_000_000 }, { timeoutMs: 60_000 }))).toHaveLength(6_000_000);
  });

  it('a server that stops reading its stdin is restarted once 16 MiB wait unread, instead of the requests piling up in memory', async () => {
    const client = clientFor(stdio());
    const pid = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect(textOf(await client.callTool('stop-reading', {}, { timeoutMs: 20_000 }))).toBe('no longer reading');
    // Each 6 MB request (and the cancellation of each that times out) stays in the gateway's buffer
    // for the stdin the server no longer reads; the third passes 16 MiB, so the third or fourth call
    // (whichever write comes next: its own, or the third's cancellation) ends the connection.
    const big = { text: 'z'.repeat(6_000_000) };
    const outcomes: string[] = [];
    while (outcomes.length < 5 && !outcomes.includes('stopped')) {
      const error = (await client.callTool('echo', big, { timeoutMs: 1_000 }).catch((e: unknown) => e)) as GatewayError;
      outcomes.push(error.code === 'upstream_unavailable' && error.message.includes('hostile stopped reading its input') ? 'stopped' : error.code);
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(3);
    expect(outcomes).toEqual([...Array<string>(outcomes.length - 1).fill('upstream_timeout'), 'stopped']);
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);
    const again = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect(again).not.toBe(pid);
  });

  it('a server that answers nothing is restarted after three timeouts in a row; an answer in between starts the count again', async () => {
    const client = clientFor(stdio(), { maxTimeoutsInARow: 3 });
    const hang = () => client.callTool('hang', {}, { timeoutMs: 300 }).catch((e: unknown) => (e as GatewayError).code);
    const pid = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect([await hang(), await hang()]).toEqual(['upstream_timeout', 'upstream_timeout']);
    // Answered: the two timeouts before it no longer count.
    expect(Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })))).toBe(pid);
    expect([await hang(), await hang(), await hang()]).toEqual(['upstream_timeout', 'upstream_timeout', 'upstream_timeout']);
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);
    const again = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect(again).not.toBe(pid);
  });

  it('without maxTimeoutsInARow (built-in sources, whose timeouts are a slow provider\'s) timeouts never end the connection', async () => {
    const client = clientFor(stdio());
    const pid = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    for (let i = 0; i < 4; i++) await expect(client.callTool('hang', {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })))).toBe(pid);
  });

  it('a server that hangs again after every restart is stopped for good after N failures in a row, naming the timeouts', async () => {
    const client = clientFor(stdio(), { maxConsecutiveFailures: 2, maxTimeoutsInARow: 3 });
    for (let i = 0; i < 6; i++) await client.callTool('hang', {}, { timeoutMs: 300 }).catch(() => {});
    await expect(client.callTool('pid', {}, { timeoutMs: 20_000 })).rejects.toMatchObject({
      code: 'upstream_unavailable',
      message: expect.stringMatching(/^hostile was stopped after 2 failures in a row; the last: hostile answered none of its last 3 requests in time/),
    });
  });

  it('a server that floods at start fails the connect with response_too_large, and stops for good after N failures in a row', async () => {
    const reasons: string[] = [];
    const client = new UpstreamClient({
      id: 'flood', target: stdio('--flood-at-start'), log: silentLogger, clock: systemClock,
      maxMessageBytes: messageBytesFor(MAX_RESPONSE_BYTES), maxConsecutiveFailures: 3, onGiveUp: (e) => reasons.push(e.message),
    });
    clients.push(client);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const error = await client.open().catch((e: unknown) => e);
      expect((error as GatewayError).code).toBe('response_too_large');
    }
    expect(reasons).toEqual([expect.stringMatching(/stopped after 3 failures in a row; the last: .*more than 11048576 bytes/)]);
    expect(client.stoppedReason).toBe(reasons[0]);
    const stopped = await client.listTools().catch((e: unknown) => e);
    expect((stopped as GatewayError).code).toBe('upstream_unavailable');
  });
});

describe('every byte an HTTP upstream sends is bounded', () => {
  const servers: HugeHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  /** Calls the huge tool while sampling this process's RSS; resolves with the error and the peak growth. */
  async function callHuge(mode: 'json' | 'sse') {
    const server = await serveHugeHttp(mode, 300 * 1024 * 1024);
    servers.push(server);
    const client = clientFor({ kind: 'http', url: server.url });
    await client.open();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const error = await client.callTool('huge', {}, { timeoutMs: 120_000 }).catch((e: unknown) => e);
    clearInterval(sampler);
    return { error: error as GatewayError, growthBytes: peak - baseline, sentBytes: server.sentBytes() };
  }

  it.each(['json', 'sse'] as const)('a 300 MB answer (%s) fails with response_too_large after reading about the bound, not the whole answer', async (mode) => {
    const { error, growthBytes, sentBytes } = await callHuge(mode);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe('response_too_large');
    expect(error.message).toMatch(mode === 'json' ? /an HTTP body of more than 11048576 bytes/ : /an SSE event of more than 11048576 bytes/);
    // The server stops when the gateway stops reading: the bound plus socket buffers, not 300 MB.
    expect(sentBytes).toBeLessThan(64 * 1024 * 1024);
    expect(growthBytes).toBeLessThan(150 * 1024 * 1024);
  });

  it('a body whose Content-Length is over the bound is refused before it is read', async () => {
    const http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) }).write('{'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    const violations: GatewayError[] = [];
    const bounded = sizeBoundedFetch(globalThis.fetch, { id: 'declared', maxMessageBytes: 1000, onViolation: (e) => violations.push(e) });
    const error = await bounded(url).catch((e: unknown) => e);
    http.closeAllConnections();
    http.close();
    expect((error as GatewayError).code).toBe('response_too_large');
    expect(violations).toHaveLength(1);
  });
});

describe('the legacy SSE transport is bounded per event too', () => {
  it('a 12 MB result event fails that call with response_too_large; the next call reconnects', async () => {
    const transports = new Map<string, SSEServerTransport>();
    const http = createServer((req, res) => {
      if (req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        const mcp = new McpServer({ name: 'legacy-sse', version: '1' });
        mcp.registerTool('sized', { inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({ content: [{ type: 'text', text: 'y'.repeat(bytes) }] }));
        void mcp.connect(transport);
        return;
      }
      const sessionId = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('sessionId') ?? '';
      void transports.get(sessionId)?.handlePostMessage(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const client = clientFor({ kind: 'sse', url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse` });
      const error = await client.callTool('sized', { bytes: 12_000_000 }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
      expect((error as GatewayError).code).toBe('response_too_large');
      expect((error as GatewayError).message).toMatch(/an SSE event of more than 11048576 bytes/);
      expect(textOf(await client.callTool('sized', { bytes: 10 }, { timeoutMs: 20_000 }))).toBe('y'.repeat(10));
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });
});
