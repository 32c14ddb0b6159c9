import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { mcpHeaders, mcpPost } from '../fixtures/rawMcp.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const log = captureLogger();
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({}, undefined, { log });
});
afterAll(async () => {
  await gateway?.dispose();
});

/** The JSON-RPC answer to a lone request (the gateway answers it as application/json). */
async function answerOf(response: Response): Promise<{ result?: { tools?: unknown[] }; error?: { code: number; message: string } }> {
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

describe("a session's handshake", () => {
  it('answers a request sent before notifications/initialized with what to send, and starts the Session once however often it is sent', async () => {
    const init = await fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: mcpHeaders(gateway),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hasty', version: '1' } } }),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;

    const early = await answerOf(await mcpPost(gateway, session, { jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(early.error).toMatchObject({ code: -32600 });
    expect(early.error!.message).toContain('send notifications/initialized');
    expect((await answerOf(await mcpPost(gateway, session, { jsonrpc: '2.0', id: 3, method: 'ping' }))).result).toEqual({});

    for (let i = 0; i < 2; i++) expect((await mcpPost(gateway, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await answerOf(await mcpPost(gateway, session, { jsonrpc: '2.0', id: 4, method: 'tools/list' }))).result!.tools!.length).toBeGreaterThan(0);
    expect((await adminApi(gateway).get(`/api/sessions/${session}`)).status).toBe(200);
    expect(log.lines.filter((line) => line.includes('session started') && line.includes(session))).toHaveLength(1);
    expect(log.lines.filter((line) => line.includes('could not persist the session'))).toEqual([]);
  });
});
