import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const malformedServer = fileURLToPath(new URL('../fixtures/servers/malformedResultServer.mjs', import.meta.url));
let gateway: TestGateway;
let api: AdminApi;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  const created = await api.post('/api/mcp/servers', { name: 'Malformed', transport: 'stdio', command: process.execPath, args: [malformedServer], enabled: true, timeoutSeconds: 30 });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await gateway?.dispose();
});

describe("an upstream's malformed tools/call result", () => {
  it('ends as a structured upstream_error naming the field; valid text and image results pass; the gateway keeps serving', async () => {
    const agent = await gateway.connect({ name: 'agent-malformed' });
    const session = await api.sessionOf('agent-malformed');
    await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    const bad = (await agent.callTool({ name: 'mcp__malformed__bad', arguments: {} })) as any;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.error.code).toBe('upstream_error');
    expect(bad.structuredContent.error.message).toMatch(/malformed tools\/call result: content\[0\]\.text/);
    expect(JSON.stringify(bad)).not.toMatch(/\bat .*\.[jt]s:\d+/);
    const image = (await agent.callTool({ name: 'mcp__malformed__image', arguments: {} })) as any;
    expect(image.content).toContainEqual({ type: 'image', data: 'aGk=', mimeType: 'image/png' });
    const good = (await agent.callTool({ name: 'mcp__malformed__good', arguments: {} })) as any;
    expect(good.isError).toBeFalsy();
    expect(good.content).toContainEqual({ type: 'text', text: 'fine' });
    // The SDK's default validator compiled every outputSchema on tools/list, so this one tool's
    // schema failed the whole server's discovery; now only its own calls fail, saying why.
    const typed = (await agent.callTool({ name: 'mcp__malformed__typed', arguments: {} })) as any;
    expect(typed.isError).toBe(true);
    // The tool declared its own outputSchema, so the gateway's error rides in _meta (toolResults.ts).
    const refusal = typed._meta['scigate/invocation'].error;
    expect(refusal.code).toBe('upstream_error');
    expect(refusal.message).toMatch(/'s result for typed does not match the outputSchema the tool declares: the schema does not compile \(.*missing.*\); its server must fix it$/);
    expect(refusal.message).not.toMatch(/answered with an MCP error/);
    const { body } = await api.get(`/api/sessions/${session.id}/invocations`);
    const outcomes = body.invocations.map((i: any) => i.errorCode ?? i.outcome);
    expect(outcomes).toContain('upstream_error');
  });

  it('a JSON-RPC answer whose result or error is not an object fails its call at once as upstream_error, not as a timeout 30 s later', async () => {
    const agent = await gateway.connect({ name: 'agent-rpc-shape' });
    const session = await api.sessionOf('agent-rpc-shape');
    await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    for (const [tool, field] of [['not-an-object', 'result'], ['bare-error', 'error']] as const) {
      const started = Date.now();
      const answer = (await agent.callTool({ name: `mcp__malformed__${tool}`, arguments: {} })) as any;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent.error.code).toBe('upstream_error');
      expect(answer.structuredContent.error.message).toMatch(new RegExp(`answered with a malformed JSON-RPC response \\(${field}: .*expected object.*\\); its server must fix it\\.$`));
      expect(answer.structuredContent.error.retryable).toBe(false);
    }
    // An answer that was not a timeout: the server is not restarted, and keeps serving.
    const good = (await agent.callTool({ name: 'mcp__malformed__good', arguments: {} })) as any;
    expect(good.content).toContainEqual({ type: 'text', text: 'fine' });
    const { body } = await api.get(`/api/sessions/${session.id}/invocations`);
    expect(body.invocations.map((i: any) => i.errorCode ?? i.outcome).filter((o: string) => o === 'upstream_error')).toHaveLength(2);
  });
});
