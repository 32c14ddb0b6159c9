import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { adminApi, allowEverything, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { everythingStdio, startEverythingHttp, type RunningEverything } from '../../fixtures/custom/everythingServer.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

let gateway: TestGateway;
let api: AdminApi;
let http: RunningEverything;

beforeAll(async () => {
  [gateway, http] = await Promise.all([startTestGateway(), startEverythingHttp('streamableHttp')]);
  api = adminApi(gateway);
  expect((await api.post('/api/mcp/servers', { name: 'everything', ...everythingStdio(), enabled: true })).status).toBe(201);
  const created = await api.post('/api/mcp/servers', { name: 'everything http', transport: 'http', url: http.url, enabled: true });
  expect([created.status, created.text]).toEqual([201, expect.anything()]);
}, 120_000);
afterAll(async () => {
  await gateway?.dispose();
  await http?.close();
});

/** An agent whose client answers sampling and elicitation, recording what it was asked. */
async function agent(name: string) {
  const client = await gateway.connect({ name, capabilities: { sampling: {}, elicitation: { form: {} } } });
  const asked = { sampling: [] as string[], elicitation: [] as string[] };
  let releaseQuestions!: () => void;
  const questionsMayEnd = new Promise<void>((resolve) => (releaseQuestions = resolve));
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]!.content as { text: string };
    asked.sampling.push(content.text);
    return { model: `model-of-${name}`, role: 'assistant', content: { type: 'text', text: `answer for ${name}` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request: ElicitRequest) => {
    asked.elicitation.push(request.params.message);
    await questionsMayEnd;
    return { action: 'accept', content: { name: `person of ${name}` } };
  });
  await client.listTools();
  await allowEverything(api, (await api.sessionOf(name)).id);
  return { client, asked, releaseQuestions };
}

const text = (result: any) => (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

describe.each([
  ['stdio', 'everything'],
  ['http', 'everything-http'],
])('server-everything over %s: sampling and elicitation reach the Session whose call caused them', (_transport, label) => {
  it('its sampling and elicitation tools are listed; sampling round-trips to the calling client only', async () => {
    const a = await agent(`sampler-a-${label}`);
    const b = await agent(`sampler-b-${label}`);
    const names = (await a.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([`mcp__${label}__trigger-sampling-request`, `mcp__${label}__trigger-elicitation-request`]));
    const result = (await a.client.callTool({ name: `mcp__${label}__trigger-sampling-request`, arguments: { prompt: 'hello upstream' } })) as any;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain(`model-of-sampler-a-${label}`);
    expect(a.asked.sampling).toEqual([expect.stringContaining('hello upstream')]);
    expect(b.asked.sampling).toEqual([]);
  });

  it('two Sessions calling the elicitation tool at once each get only their own question, marked with the server it comes from', async () => {
    const a = await agent(`asker-a-${label}`);
    const b = await agent(`asker-b-${label}`);
    const tool = `mcp__${label}__trigger-elicitation-request`;
    const calls = [a, b].map((x) => x.client.callTool({ name: tool, arguments: {} }, undefined, { timeout: 120_000 }));
    // A custom server runs one call at a time (its limiter, shared by all Sessions): the first
    // question is open while the other call waits in the queue, and goes to its own client only.
    await expect.poll(() => a.asked.elicitation.length + b.asked.elicitation.length, { timeout: 60_000, interval: 20 }).toBe(1);
    const [first, second] = a.asked.elicitation.length === 1 ? [a, b] : [b, a];
    expect(second.asked.elicitation).toEqual([]);
    first.releaseQuestions();
    await expect.poll(() => second.asked.elicitation.length, { timeout: 60_000, interval: 20 }).toBe(1);
    second.releaseQuestions();
    const [ra, rb] = (await Promise.all(calls)) as any[];
    for (const x of [a, b]) expect(x.asked.elicitation).toEqual([expect.stringMatching(/^\[everything[^\]]* via scigate\] Please provide inputs/)]);
    expect(text(ra)).toContain(`person of asker-a-${label}`);
    expect(text(ra)).not.toContain(`person of asker-b-${label}`);
    expect(text(rb)).toContain(`person of asker-b-${label}`);
    expect(text(rb)).not.toContain(`person of asker-a-${label}`);
  });
});

describe('logging', () => {
  it("logging/setLevel, then a log-emitting tool: the Session gets that server's log messages, another Session does not", async () => {
    const listener = await gateway.connect({ name: 'log-listener' });
    const bystander = await gateway.connect({ name: 'log-bystander' });
    expect(listener.getServerCapabilities()?.logging).toBeDefined();
    const heard: Array<{ level: string; logger?: string }> = [];
    const overheard: unknown[] = [];
    listener.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(n.params));
    bystander.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void overheard.push(n.params));
    await listener.listTools();
    await bystander.listTools();
    for (const name of ['log-listener', 'log-bystander']) await allowEverything(api, (await api.sessionOf(name)).id);
    await listener.setLoggingLevel('debug');
    const started = (await listener.callTool({ name: 'mcp__everything__toggle-simulated-logging', arguments: {} })) as any;
    expect(text(started)).toContain('Started simulated');
    await expect.poll(() => heard.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    expect(heard[0]!.logger).toMatch(/^everything/);
    expect(overheard).toEqual([]);
    await listener.callTool({ name: 'mcp__everything__toggle-simulated-logging', arguments: {} });
  });
});

describe('a Session whose client cannot answer', () => {
  it('gets a clear error from the tool instead of a question sent elsewhere', async () => {
    const client: Client = await gateway.connect({ name: 'no-sampling' });
    await client.listTools();
    await allowEverything(api, (await api.sessionOf('no-sampling')).id);
    const result = (await client.callTool({ name: 'mcp__everything__trigger-sampling-request', arguments: { prompt: 'x' } })) as any;
    expect(text(result)).toMatch(/declared the sampling capability|did not declare sampling/);
  });
});
