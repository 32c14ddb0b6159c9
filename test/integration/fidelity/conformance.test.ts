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

type ScenarioResults = Record<string, Array<{ id: string; status: string; errorMessage?: string }>>;

/**
 * Runs every server scenario of the suite (`--suite all`: the pending ones too, such as
 * json-schema-2020-12) against `url` in one conformance CLI process, and returns the checks of
 * `scenarios` by scenario. The tests read only the scenarios the server implements; one process per
 * scenario cost about 40 s of CPU in start-ups alone.
 */
async function conformance(url: string, name: string): Promise<ScenarioResults> {
  const out = join(scratch, name);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--suite', 'all', '-o', out], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
  const results: ScenarioResults = {};
  for (const dir of await readdir(out)) results[dir] = JSON.parse(await readFile(join(out, dir, 'checks.json'), 'utf8'));
  return results;
}

/** The results of `scenarios` (each run's directory is `server-<scenario>-<time>`). */
function pick(all: ScenarioResults, scenarios: string[]): ScenarioResults {
  const picked: ScenarioResults = {};
  for (const [dir, checks] of Object.entries(all)) {
    const scenario = scenarios.find((s) => dir.startsWith(`server-${s}-`));
    if (scenario) picked[scenario] = checks;
  }
  return picked;
}

/** The per-source endpoint's run, shared by the two tests that read it. */
let perSource: Promise<ScenarioResults> | undefined;
const perSourceResults = () => (perSource ??= conformance(`${proxy.url}/mcp/sources/${reference.id}`, 'per-source'));

const failures = (results: ScenarioResults) =>
  Object.entries(results).flatMap(([scenario, checks]) => checks.filter((c) => c.status === 'FAILURE').map((c) => `${scenario}/${c.id}: ${c.errorMessage}`));

describe('the MCP conformance suite (server scenarios, @modelcontextprotocol/conformance 0.1.13)', () => {
  it('through /mcp/sources/<id>, the reference stand-in passes every tool scenario it implements', async () => {
    const results = pick(await perSourceResults(), TOOL_SCENARIOS);
    expect(Object.keys(results).sort()).toEqual([...TOOL_SCENARIOS].sort());
    expect(failures(results)).toEqual([]);
  }, 600_000);

  it('through /mcp/sources/<id>, its resources, resource template, subscriptions, prompts and completions scenarios pass too', async () => {
    const results = pick(await perSourceResults(), FEATURE_SCENARIOS);
    expect(Object.keys(results).sort()).toEqual([...FEATURE_SCENARIOS].sort());
    expect(failures(results)).toEqual([]);
  }, 600_000);

  it("scigate's own /mcp: DNS-rebinding, initialize, ping, tools/list, logging/setLevel, and the resources, prompts and completions it declares (the Session's files and the reference server's, whose own URIs and names resolve there too) pass", async () => {
    const scenarios = [
      'server-initialize', 'ping', 'tools-list', 'logging-set-level', 'dns-rebinding-protection', 'server-sse-multiple-streams', ...FEATURE_SCENARIOS,
    ];
    const results = pick(await conformance(`${proxy.url}/mcp`, 'gateway'), scenarios);
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
