import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, type Socket } from 'node:net';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { HEADERS_HOLD_MS } from '../../gateway/listener/nodeStreamableTransport.js';
import { mcpHeaders, rawMcpSession } from '../fixtures/rawMcp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let sessionId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  sessionId = await initialize();
});
afterAll(async () => {
  await gateway?.dispose();
});

const headers = (extra: Record<string, string> = {}) => mcpHeaders(gateway, extra);
const initialize = () => rawMcpSession(gateway, 'raw-writes');

/** Sends one JSON-RPC request on a raw socket and records each chunk the client's socket reads. */
function rawPost(message: object): { socket: Socket; chunks: string[] } {
  const url = new URL(gateway.mcpUrl);
  const body = JSON.stringify(message);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: string[] = [];
  socket.on('data', (chunk) => chunks.push(chunk.toString('utf8')));
  socket.on('error', () => {});
  const lines = Object.entries(headers({ 'mcp-session-id': sessionId })).map(([k, v]) => `${k}: ${v}`);
  socket.write([`POST ${url.pathname} HTTP/1.1`, `host: ${url.host}`, ...lines, `content-length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'));
  return { socket, chunks };
}

/** A raw HTTP/1.1 answer read to its end: a chunked (SSE) body's last chunk, or as many body bytes as its Content-Length. */
function answerComplete(raw: string): boolean {
  if (/\r\n0\r\n\r\n$/.test(raw)) return true;
  const length = /content-length: (\d+)/i.exec(raw);
  const head = raw.indexOf('\r\n\r\n');
  return length !== null && head >= 0 && Buffer.byteLength(raw.slice(head + 4)) >= Number(length[1]);
}

describe('/mcp writes an answer with its headers in one socket write', () => {
  it('a plain call answered before the headers hold ends is JSON, headers and body in one write', async () => {
    // A call of an unknown tool: a short answer, given after the broker audited it (asynchronously).
    for (let id = 10; id < 15; id++) {
      const sent = performance.now();
      const { socket, chunks } = rawPost({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
      let firstAfterMs = 0;
      socket.once('data', () => (firstAfterMs = performance.now() - sent));
      await vi.waitFor(() => expect(answerComplete(chunks.join(''))).toBe(true), { timeout: 60_000, interval: 10 });
      socket.destroy();
      const [first] = chunks;
      const whole = chunks.join('');
      expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      // Headers alone first only when the answer took longer than the hold (a loaded machine): then it is SSE.
      if (firstAfterMs < HEADERS_HOLD_MS) {
        expect(first).toMatch(/content-type: application\/json\r\n/i);
        expect(first).toContain(`"id":${id}`);
        const body = whole.slice(whole.indexOf('\r\n\r\n') + 4);
        expect(Number(/content-length: (\d+)/i.exec(whole)![1])).toBe(Buffer.byteLength(body));
        expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', id, result: { isError: true } });
      }
      expect(whole).toContain(`"id":${id}`);
    }
  });

  it('an answer that waits (a human deciding) gets its headers once the hold ends, before its event', async () => {
    const api = adminApi(gateway);
    const created = await api.post('/api/mcp/servers', { name: 'slow everything', ...everythingStdio(), enabled: true });
    const echo = created.body.server.tools.find((t: { upstreamName: string }) => t.upstreamName === 'echo').name;
    // The Session asks for dangerous calls (the default): the call waits for a decision nobody makes here.
    const { socket, chunks } = rawPost({ jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: echo, arguments: { message: 'hi' } } });
    await vi.waitFor(() => expect(chunks.join('')).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n/), { timeout: 60_000, interval: 10 });
    expect(chunks.join('')).toMatch(/content-type: text\/event-stream\r\n/i);
    expect(chunks.join('')).not.toContain('"id":20');
    socket.destroy();
  }, 120_000);
});
