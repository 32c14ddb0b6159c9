import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.dispose();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

async function post(headers: Record<string, string>, body: unknown = initialize) {
  const response = await fetch(gateway.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** fetch cannot forge Host; node:http can. */
function postWithHost(host: string): Promise<{ status: number; body: string }> {
  const url = new URL(gateway.mcpUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host, authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initialize));
  });
}

describe('the /mcp front door', () => {
  it('a missing token gets 401 with a JSON error that says how to get one', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    // /mcp answers JSON-RPC errors only; the gateway's code rides in `data`.
    expect(JSON.parse(response.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { code: 'unauthorized' } } });
    expect(JSON.parse(response.text).error.message).toContain('scigate token');
  });

  it('a wrong token gets 401 and the response never echoes a token', async () => {
    const response = await post({ authorization: 'Bearer not-the-token' });
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(gateway.token);
    expect(response.text).not.toContain('not-the-token');
  });

  it('an unknown Mcp-Session-Id gets 404 so the client re-initializes', async () => {
    const response = await post(
      { authorization: `Bearer ${gateway.token}`, 'mcp-session-id': 'ses_doesnotexist' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    );
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text).error.message).toContain('initialize');
  });

  it('a foreign Host (DNS rebinding) gets 403 naming the setting to change', async () => {
    const response = await postWithHost('evil.example.com');
    expect(response.status).toBe(403);
    // /mcp answers in JSON-RPC only, even when the request never gets past the guard.
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, data: { code: 'forbidden' } }, id: null });
    expect(JSON.parse(response.body).error.message).toContain('--allowed-hosts');
    const ok = await postWithHost(`localhost:${new URL(gateway.mcpUrl).port}`);
    expect(ok.status).toBe(200);
  });

  it('a foreign Origin gets 403', async () => {
    const response = await post({ authorization: `Bearer ${gateway.token}`, origin: 'https://evil.example.com' });
    expect(response.status).toBe(403);
  });

  it('the admin API shares the token and answers errors as JSON', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/sessions`)).status).toBe(401);
    const headers = { authorization: `Bearer ${gateway.token}` };
    const missing = await fetch(`${gateway.url}/api/sessions/nope`, { headers });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('not_found');
    const ready = await fetch(`${gateway.url}/readyz`, { headers });
    expect(ready.status).toBe(200);
  });
});
