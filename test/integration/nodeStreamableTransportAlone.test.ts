import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { NodeStreamableTransport } from '../../gateway/listener/nodeStreamableTransport.js';

/** The transport alone on a loopback Node server: what it receives is recorded, nothing answers unless the test sends. */
async function serve(): Promise<{ url: string; transport: NodeStreamableTransport; received: JSONRPCMessage[]; server: Server }> {
  const transport = new NodeStreamableTransport({ sessionIdGenerator: () => 'ses_alone' });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  await transport.start();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void transport.handleNodeRequest(req, res, chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, transport, received, server };
}

let opened: Server | undefined;
afterEach(async () => {
  opened?.closeAllConnections();
  await new Promise<void>((resolve) => (opened ? opened.close(() => resolve()) : resolve()));
  opened = undefined;
});

const headers = (session?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  ...(session ? { 'mcp-session-id': session } : {}),
});

/**
 * Initializes the transport's session, answering the initialize the moment it arrives. Whether the
 * answer comes as JSON or, if the machine stalled past the headers hold, as an event stream is
 * timing, not what these tests are about: either must carry the session id and the result.
 */
async function initialize(url: string, transport: NodeStreamableTransport): Promise<void> {
  const record = transport.onmessage;
  transport.onmessage = (message, extra) => {
    record?.(message, extra);
    if ('method' in message && message.method === 'initialize') {
      void transport.send({ jsonrpc: '2.0', id: 0, result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: 's', version: '1' } } });
    }
  };
  const answer = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'alone', version: '1' } } }),
  });
  transport.onmessage = record;
  expect(['application/json', 'text/event-stream']).toContain(answer.headers.get('content-type'));
  expect(answer.headers.get('mcp-session-id')).toBe('ses_alone');
  expect(await answer.text()).toContain('"serverInfo"');
}

describe('NodeStreamableTransport on its own', () => {
  it('routes a related message to its request\'s stream and an unrelated one to the standalone stream', async () => {
    const { url, transport, received, server } = await serve();
    opened = server;
    await initialize(url, transport);
    const standalone = await fetch(url, { headers: { ...headers('ses_alone'), accept: 'text/event-stream' } });
    const call = fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't' } }) });
    await vi.waitFor(() => expect(received.some((m) => 'id' in m && m.id === 7)).toBe(true), { timeout: 60_000 });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, { relatedRequestId: 7 });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await transport.send({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    const answer = await call;
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const events = await answer.text();
    expect(events.indexOf('notifications/progress')).toBeGreaterThan(-1);
    expect(events.indexOf('notifications/progress')).toBeLessThan(events.indexOf('"id":7'));
    expect(events).not.toContain('list_changed');
    const reader = standalone.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/tools/list_changed');
    await reader.cancel();
  });

  it('keeps a request whose client left in flight until it is answered: its id is not taken, its progress goes nowhere, its response is reported undeliverable', async () => {
    const { url, transport, received, server } = await serve();
    opened = server;
    await initialize(url, transport);
    const left = new Promise<void>((resolve) => server.once('request', (_req, res) => res.once('close', resolve)));
    const gone = new AbortController();
    const call = fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 't' } }), signal: gone.signal });
    await vi.waitFor(() => expect(received.some((m) => 'id' in m && m.id === 8)).toBe(true), { timeout: 60_000 });
    gone.abort();
    await expect(call).rejects.toThrow();
    await left;
    // A retry with the same id would receive the first call's response: refused while that call runs.
    const retry = await fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) });
    expect(retry.status).toBe(400);
    expect(((await retry.json()) as { error: { message: string } }).error.message).toMatch(/id 8 belongs to a request still running/);
    expect(received.filter((m) => 'id' in m && m.id === 8)).toHaveLength(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 2 } }, { relatedRequestId: 8 })).resolves.toBeUndefined();
    await expect(transport.send({ jsonrpc: '2.0', id: 8, result: { content: [] } })).rejects.toThrow(/No connection established for request ID: 8/);
    // Answered, its id is free again.
    const again = fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) });
    await vi.waitFor(() => expect(received.filter((m) => 'id' in m && m.id === 8)).toHaveLength(2), { timeout: 60_000 });
    await transport.send({ jsonrpc: '2.0', id: 8, result: {} });
    expect((await again).status).toBe(200);
  });

  it('refuses at once a request no stream can carry (its sender would wait out its timeout), and sends it on the GET stream once one is open', async () => {
    const { url, transport, server } = await serve();
    opened = server;
    await initialize(url, transport);
    const noStream = /no open stream to receive this roots\/list request/;
    await expect(transport.send({ jsonrpc: '2.0', id: 'up-1', method: 'roots/list' })).rejects.toThrow(noStream);
    // Related to a request that is not open (answered, or its client left): no stream either.
    await expect(transport.send({ jsonrpc: '2.0', id: 'up-2', method: 'roots/list' }, { relatedRequestId: 99 })).rejects.toThrow(noStream);
    // A notification without a stream is still dropped quietly: the GET stream is optional.
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).resolves.toBeUndefined();
    const standalone = await fetch(url, { headers: { ...headers('ses_alone'), accept: 'text/event-stream' } });
    expect(standalone.status).toBe(200);
    await transport.send({ jsonrpc: '2.0', id: 'up-3', method: 'roots/list' }, { relatedRequestId: 99 });
    const reader = standalone.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"id":"up-3"');
    await reader.cancel();
  });

  it('ends a held answer when the transport closes, and refuses requests after it', async () => {
    const { url, transport, received, server } = await serve();
    opened = server;
    await initialize(url, transport);
    let closed = 0;
    transport.onclose = () => void (closed += 1);
    const call = fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
    await vi.waitFor(() => expect(received.some((m) => 'id' in m && m.id === 9)).toBe(true), { timeout: 60_000 });
    await transport.close();
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('');
    expect(closed).toBe(1);
    const after = await fetch(url, { method: 'POST', headers: headers('ses_alone'), body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }) });
    expect(after.status).toBe(404);
  });
});
