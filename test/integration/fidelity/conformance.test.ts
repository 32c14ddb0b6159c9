import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminApi, type AdminApi } from '../../fixtures/custom/adminApi.js';
import { openEventStream, type EventStream } from '../../fixtures/eventStream.js';
import { startHeaderProxy, type HeaderProxy } from '../../fixtures/headerProxy.js';
import { startTestGateway, type TestGateway } from '../../fixtures/testGateway.js';

const require = createRequire(import.meta.url);
const CONFORMANCE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const referenceServer = fileURLToPath(new URL('../../fixtures/servers/conformanceServer.mjs', import.meta.url));
/** The server scenarios the reference stand-in implements (its tools); each passes against it directly. */
const TOOL_SCENARIOS = [
  'server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-image', 'tools-call-audio',
  'tools-call-embedded-resource', 'tools-call-mixed-content', 'tools-call-error', 'tools-call-with-progress',
  'json-schema-2020-12', 'dns-rebinding-protection',
];
/** Its resources, resource template, subscriptions, prompts and completions scenarios. */
const FEATURE_SCENARIOS = [
  'resources-list', 'resources-read-text', 'resources-read-binary', 'resources-templates-read', 'resources-subscribe', 'resources-unsubscribe',
  'prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image', 'completion-complete',
];

/** Scenario processes running at once (each a conformance CLI of its own). */
const SCENARIOS_AT_ONCE = 4;

let gateway: TestGateway;
let api: AdminApi;
let proxy: HeaderProxy;
let events: EventStream;
let reference: { id: string };
let scratch: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  proxy = await startHeaderProxy(gateway.url, { authorization: `Bearer ${gateway.token}` });
  scratch = await mkdtemp(join(tmpdir(), 'scigate-conformance-'));
  const created = await api.post('/api/mcp/servers', { name: 'reference', transport: 'stdio', command: process.execPath, args: [referenceServer], enabled: true });
  expect(created.status).toBe(201);
  reference = created.body.server;
  // The suite's client cannot answer permission questions: a human (this loop) allows each one.
  events = await openEventStream(gateway);
  void (async () => {
    for (;;) {
      const created = await events.next((e) => e.type === 'permission_request.created', 600_000).catch(() => undefined);
      if (!created) return;
      await api.post(`/api/permission-requests/${created.data.id}/decision`, { decision: 'allow_once' }).catch(() => {});
    }
  })();
}, 120_000);
afterAll(async () => {
  events?.close();
  await proxy?.close();
  await gateway?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs the conformance suite's server scenarios against `url`; returns every check's status by scenario. */
async function conformance(url: string, scenarios: string[], name: string): Promise<Record<string, Array<{ id: string; status: string; errorMessage?: string }>>> {
  const out = join(scratch, name);
  const results: Record<string, Array<{ id: string; status: string; errorMessage?: string }>> = {};
  const run = (scenario: string) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', out], { stdio: 'ignore' });
      child.once('error', reject);
      child.once('exit', () => resolve());
    });
  // Each scenario is its own MCP session, so they run side by side: one after another, each child
  // mostly waited on its own start-up and on round trips, not on the CPU.
  const queue = [...scenarios];
  await Promise.all(Array.from({ length: SCENARIOS_AT_ONCE }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await run(next);
  }));
  for (const dir of await readdir(out)) {
    const scenario = scenarios.find((s) => dir.startsWith(`server-${s}-`));
    if (scenario) results[scenario] = JSON.parse(await readFile(join(out, dir, 'checks.json'), 'utf8'));
  }
  return results;
}

const failures = (results: Awaited<ReturnType<typeof conformance>>) =>
  Object.entries(results).flatMap(([scenario, checks]) => checks.filter((c) => c.status === 'FAILURE').map((c) => `${scenario}/${c.id}: ${c.errorMessage}`));

describe('the MCP conformance suite (server scenarios, @modelcontextprotocol/conformance 0.1.13)', () => {
  it('through /mcp/sources/<id>, the reference stand-in passes every tool scenario it implements', async () => {
    const results = await conformance(`${proxy.url}/mcp/sources/${reference.id}`, TOOL_SCENARIOS, 'per-source');
    expect(Object.keys(results).sort()).toEqual([...TOOL_SCENARIOS].sort());
    expect(failures(results)).toEqual([]);
  }, 600_000);

  it('through /mcp/sources/<id>, its resources, resource template, subscriptions, prompts and completions scenarios pass too', async () => {
    const results = await conformance(`${proxy.url}/mcp/sources/${reference.id}`, FEATURE_SCENARIOS, 'per-source-features');
    expect(Object.keys(results).sort()).toEqual([...FEATURE_SCENARIOS].sort());
    expect(failures(results)).toEqual([]);
  }, 600_000);

  it("scigate's own /mcp: DNS-rebinding, initialize, ping, tools/list, logging/setLevel, and the resources, prompts and completions it declares (the Session's files and the reference server's, whose own URIs and names resolve there too) pass", async () => {
    const scenarios = [
      'server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection', 'server-sse-multiple-streams', ...FEATURE_SCENARIOS,
    ];
    const results = await conformance(`${proxy.url}/mcp`, scenarios, 'gateway');
    expect(Object.keys(results).sort()).toEqual([...scenarios].sort());
    expect(failures(results)).toEqual([]);
    const agent = await gateway.connect({ name: 'capabilities' });
    expect(agent.getServerCapabilities()).toMatchObject({ logging: {}, resources: { subscribe: true }, prompts: {}, completions: {} });
    await agent.close();
  }, 600_000);

  it('/mcp declares prompts, completions and subscriptions only while a custom server serves them', async () => {
    expect((await api.patch(`/api/mcp/servers/${reference.id}`, { enabled: false })).status).toBe(200);
    const agent = await gateway.connect({ name: 'capabilities-without-servers' });
    const declared = agent.getServerCapabilities() ?? {};
    expect(declared).toHaveProperty('resources');
    expect(declared.resources).not.toHaveProperty('subscribe');
    for (const unserved of ['completions', 'prompts']) expect(declared).not.toHaveProperty(unserved);
    await agent.close();
  }, 120_000);
});
