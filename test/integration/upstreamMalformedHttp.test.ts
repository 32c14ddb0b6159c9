import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminApi, allowEverything } from '../fixtures/custom/adminApi.js';
import { serveMalformedHttp, type MalformedHttpServer } from '../fixtures/servers/malformedHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

/**
 * An HTTP upstream answering a call with `"result": "ok"`. The SDK's transports parse what HTTP
 * servers send: it dropped such an SSE event (the call waited its whole timeout, then read as
 * upstream_timeout) and failed such a JSON body as a server that "could not be reached", with a zod
 * dump and retryable: true.
 */
describe("an HTTP upstream's answer whose result is not an object", () => {
  let gateway: TestGateway | undefined;
  let upstream: MalformedHttpServer | undefined;
  afterEach(async () => {
    await gateway?.dispose();
    await upstream?.close();
  });

  it.each(['json', 'sse', 'legacy-sse'] as const)('over %s: fails its call at once as upstream_error naming the field; the server keeps serving', async (mode) => {
    upstream = await serveMalformedHttp(mode);
    gateway = await startTestGateway();
    const api = adminApi(gateway);
    const transport = mode === 'legacy-sse' ? 'sse' : 'http';
    const created = await api.post('/api/mcp/servers', { name: 'Shapeless', transport, url: upstream.url, enabled: true, timeoutSeconds: 30 });
    expect(created.status, created.text).toBe(201);
    await vi.waitFor(async () => {
      if (!(await api.get('/api/mcp/servers')).body.servers[0].tools?.length) throw new Error('not discovered yet');
    }, { timeout: 30_000, interval: 50 });
    const agent = await gateway.connect({ name: `agent-${mode}` });
    await allowEverything(api, (await api.sessionOf(`agent-${mode}`)).id);

    const started = Date.now();
    const answer = (await agent.callTool({ name: 'mcp__shapeless__not-an-object', arguments: {} })) as any;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: false });
    expect(answer.structuredContent.error.message).toMatch(/answered with a malformed JSON-RPC response \(result: .*expected object, received string\); its server must fix it\.$/);
    const good = (await agent.callTool({ name: 'mcp__shapeless__good', arguments: {} })) as any;
    expect(good.content).toContainEqual({ type: 'text', text: 'fine' });
  }, 90_000);
});
