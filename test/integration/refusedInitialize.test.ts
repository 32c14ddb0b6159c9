import { afterEach, describe, expect, it, vi } from 'vitest';
import { NodeStreamableTransport } from '../../gateway/listener/nodeStreamableTransport.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await gateway?.dispose();
  gateway = undefined;
});

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

async function sessions(g: TestGateway): Promise<Array<{ clientName: string; endedAt: string | null }>> {
  const response = await fetch(`${g.url}/api/sessions`, { headers: { authorization: `Bearer ${g.token}` } });
  return ((await response.json()) as any).sessions;
}

describe('an initialize the transport refuses', () => {
  it('builds no session for it and evicts none to make room for it', async () => {
    gateway = await startTestGateway({}, undefined, { sessionLimits: { idleTimeoutMs: 3_600_000, maxSessions: 2 } });
    const post = (headers: Record<string, string>, body: object) =>
      fetch(gateway!.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${gateway!.token}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const accept = { accept: 'application/json, text/event-stream' };
    // Two sessions at the cap of two: a raw client's (no stream open, so the one a newcomer would evict) and an SDK client's.
    const opened = await post(accept, INITIALIZE);
    await opened.text();
    const idle = { ...accept, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    expect((await post(idle, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await gateway.connect({ name: 'staying' });
    const served = vi.spyOn(NodeStreamableTransport.prototype, 'handleNodeRequest');

    const noAccept = await post({}, INITIALIZE);
    expect(noAccept.status).toBe(406);
    // An initialize sent as a notification (no id) opens nothing either.
    const { id: _, ...notification } = INITIALIZE;
    const idless = await post(accept, notification);
    expect(idless.status).toBe(400);
    expect(await idless.json()).toMatchObject({ error: { message: 'Bad Request: Server not initialized' } });
    // (The SDK client's own requests may reach its transport meanwhile: only initializes count.)
    expect(served.mock.calls.filter(([, , body]) => (body as { method?: string } | undefined)?.method === 'initialize')).toEqual([]);

    const ping = await post(idle, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(ping.status).toBe(200);
    await ping.text();
    expect((await sessions(gateway)).every((s) => s.endedAt === null)).toBe(true);
  });
});
