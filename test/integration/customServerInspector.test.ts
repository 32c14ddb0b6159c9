import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;
let server: any;
let sessionId: string;
const toolId = (upstreamName: string) => server.tools.find((t: any) => t.upstreamName === upstreamName).toolId;

beforeAll(async () => {
  gateway = await startTestGateway({ SCIGATE_TEST_INSPECT_SECRET: 'resolved-at-connect-31' });
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', {
    name: 'Inspected', ...everythingStdio(), enabled: true, env: [{ key: 'INSPECTED_VALUE', value: '$SCIGATE_TEST_INSPECT_SECRET' }],
  });
  server = created.body.server;
  await gateway.connect({ name: 'agent-inspector' });
  sessionId = (await api.sessionOf('agent-inspector')).id;
  await allowEverything(api, sessionId);
  // The Inspector ignores the Session's agent selection (and must not change it).
  await api.patch(`/api/sessions/${sessionId}`, { connectors: ['arxiv'] });
});
afterAll(async () => {
  await gateway?.dispose();
});

const inspect = (body: unknown, id = server.id) => api.post(`/api/mcp/servers/${id}/inspect`, body);

describe('the Inspector', () => {
  it('makes a real call through the broker, audited under the Session with origin inspector', async () => {
    const response = await inspect({ sessionId, toolId: toolId('echo'), arguments: { message: 'inspected' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      ok: true,
      invocationId: expect.stringMatching(/^inv_/),
      raw: { content: [{ type: 'text', text: 'Echo: inspected' }] },
      normalized: { sourceId: server.id, records: [], untrusted: true, data: { content: [{ type: 'text', text: 'Echo: inspected' }] } },
      error: null,
    });
    expect(response.body.durationMs).toBeGreaterThanOrEqual(0);
    const audit = await api.get(`/api/sessions/${sessionId}/invocations/${response.body.invocationId}`);
    expect(audit.body.invocation).toMatchObject({ origin: 'inspector', status: 'ok', sourceId: server.id, toolId: toolId('echo'), attempts: 1 });
    expect(audit.body.arguments).toEqual({ message: 'inspected' });
    expect((await api.get(`/api/sessions/${sessionId}`)).body.session.connectors).toEqual(['arxiv']);
  });

  it('names a tool by its id, its upstream name or the name agents call it by', async () => {
    const echo = server.tools.find((t: any) => t.upstreamName === 'echo');
    for (const named of [echo.toolId, echo.upstreamName, echo.name]) {
      expect((await inspect({ sessionId, toolId: named, arguments: { message: named } })).body).toMatchObject({ ok: true, raw: { content: [{ text: `Echo: ${named}` }] } });
    }
  });

  it('the stdio program sees $NAME env values resolved from the gateway environment', async () => {
    const response = await inspect({ sessionId, toolId: toolId('get-env') });
    expect(response.body.ok).toBe(true);
    // The resolved value is a secret, so the Inspector shows it scrubbed; an unresolved `$NAME`
    // reference is no secret and would show as written.
    expect(JSON.parse(response.body.raw.content[0].text)).toMatchObject({ INSPECTED_VALUE: '[redacted]' });
    expect(response.text).not.toContain('resolved-at-connect-31');
  });

  it("an invocation's arguments are shown with configured secrets scrubbed, like its result", async () => {
    const response = await inspect({ sessionId, toolId: toolId('echo'), arguments: { message: 'resolved-at-connect-31' } });
    expect(response.body.raw.content[0].text).toBe('Echo: [redacted]');
    const audit = await api.get(`/api/sessions/${sessionId}/invocations/${response.body.invocationId}`);
    expect(audit.body.arguments).toEqual({ message: '[redacted]' });
    expect(audit.text).not.toContain('resolved-at-connect-31');
  });

  it('a failing call is HTTP 200 with ok false and the error, and is audited too', async () => {
    const response = await inspect({ sessionId, toolId: toolId('echo'), arguments: { message: 42 } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: false, raw: null, normalized: null, error: { code: 'invalid_input', message: expect.stringContaining('message') } });
    const audit = await api.get(`/api/sessions/${sessionId}/invocations/${response.body.invocationId}`);
    expect(audit.body.invocation).toMatchObject({ origin: 'inspector', status: 'error', errorCode: 'invalid_input' });
  });

  it('requires an existing Session, an enabled server and a discovered tool', async () => {
    expect((await inspect({ sessionId: 'ses_missing', toolId: toolId('echo') })).body.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/^sessionId: /) });
    expect((await inspect({ sessionId, toolId: 'no_such_tool' })).status).toBe(404);
    expect((await inspect({ sessionId })).body.error.message).toMatch(/^toolId: /);
    const disabled = (await api.post('/api/mcp/servers', { name: 'Disabled', ...everythingStdio() })).body.server;
    const refused = await inspect({ sessionId, toolId: 'echo' }, disabled.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
  });

  it('a cancelled Inspector request aborts the upstream call, audited as cancelled', async () => {
    const controller = new AbortController();
    const pending = fetch(`${gateway.url}/api/mcp/servers/${server.id}/inspect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, toolId: toolId('trigger-long-running-operation'), arguments: { duration: 20, steps: 4 } }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await until(async () => (await api.get(`/api/catalog/sources/${server.id}/status`)).body.limiter.running === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    const row = await until(async () => {
      const rows = (await api.get(`/api/sessions/${sessionId}/invocations`)).body.invocations;
      return rows.find((r: any) => r.toolId === toolId('trigger-long-running-operation'));
    });
    expect(row).toMatchObject({ origin: 'inspector', status: 'cancelled', errorCode: 'cancelled' });
    expect(row.durationMs).toBeLessThan(20_000);
  });
});

/** Polls `check` (bounded: 10 s) until it returns something truthy. */
async function until<T>(check: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}
