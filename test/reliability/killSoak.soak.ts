import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startDangerousHttpServer, type DangerousHttpServer } from '../fixtures/servers/dangerousHttpServer.js';
import { auditedCode, auditedInvocations, startGateway, type GatewayProcess } from './gatewayProcess.js';
import { CONFIG_PROJECT, adminWorker, arxivWorker, loadThenKill, permissionWorker, type Ledger } from './soakLoad.js';

/** kill -9 cycles; SCIGATE_SOAK_CYCLES overrides (the documented run uses the default). */
const CYCLES = Number(process.env.SCIGATE_SOAK_CYCLES ?? 30);

let provider: ReplayServer;
let notes: DangerousHttpServer;
let root: string;

beforeAll(async () => {
  provider = await startReplayServer(arxivReplay);
  notes = await startDangerousHttpServer();
  root = await mkdtemp(join(tmpdir(), 'scigate-soak-'));
});
afterAll(async () => {
  await provider.close();
  await notes.close();
  await rm(root, { recursive: true, force: true });
});

const env = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`, SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}' });

/** Every acknowledged write is found again, as acknowledged. Returns how many were checked. */
async function verify(gateway: GatewayProcess, ledger: Ledger, writeTool: string | undefined): Promise<number> {
  const audit = await auditedInvocations(gateway.api);
  for (const answer of ledger.answers) {
    const row = audit.get(answer.invocationId);
    // docs/storage.md: a completion is durable within one commit window of its answer, and a cache
    // hit's or a refusal's intent too; a kill inside that window leaves the row interrupted, or (those) absent.
    if (answer.nearKill && (!row || row.status === 'interrupted')) continue;
    expect(row && auditedCode(row), answer.invocationId).toBe(answer.code);
  }
  const projects = new Map<string, any>(((await gateway.api.get('/api/projects')).body.projects as any[]).map((p) => [p.id, p]));
  for (const id of ledger.projects) expect(projects.has(id), id).toBe(true);
  const lastName = ledger.configNames.at(-1);
  if (lastName) expect([lastName, ledger.configInFlight]).toContain(projects.get(CONFIG_PROJECT)?.name);
  for (const d of ledger.decisions) {
    const { body } = await gateway.api.get(`/api/sessions/${d.sessionId}/permission-requests`);
    expect(body.requests.find((r: any) => r.id === d.requestId)?.status, d.requestId).toBe(d.status);
  }
  if (writeTool) expect(((await gateway.api.get('/api/mcp/servers')).body.servers as any[]).some((s) => s.name === 'notes')).toBe(true);
  return ledger.answers.length + ledger.projects.length + ledger.configNames.length + ledger.decisions.length;
}

/** The custom server (a config write itself) and the governed name of its dangerous tool. */
async function addNotesServer(gateway: GatewayProcess): Promise<string> {
  const created = await gateway.api.post('/api/mcp/servers', { name: 'notes', transport: 'http', url: notes.url, enabled: true });
  expect(created.status).toBe(201);
  expect((await gateway.api.post('/api/projects', { id: CONFIG_PROJECT })).status).toBe(201);
  return (created.body.server.tools as Array<{ upstreamName: string; name: string }>).find((t) => t.upstreamName === 'write_note')!.name;
}

/** Agents for one cycle: two on arXiv, one on the dangerous tool (once its server is rediscovered). */
async function workersFor(gateway: GatewayProcess, cycle: number, tool: string, ledger: Ledger) {
  const agents = await Promise.all([0, 1, 2].map((i) => gateway.connect(`soak-${cycle}-${i}`)));
  for (let attempt = 0; attempt < 400; attempt++) {
    if ((await agents[2]!.listTools().catch(() => ({ tools: [] }))).tools.some((t) => t.name === tool)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const session = await gateway.api.sessionOf(`soak-${cycle}-2`);
  return [arxivWorker(agents[0]!, ledger), arxivWorker(agents[1]!, ledger), permissionWorker(gateway, agents[2]!, session.id, tool, ledger), adminWorker(gateway, cycle, ledger)];
}

describe('kill -9 soak', () => {
  it(`${CYCLES} kill -9 cycles under load lose no acknowledged invocation, config write or permission decision`, { timeout: 3_600_000 }, async () => {
    const ledger: Ledger = { answers: [], projects: [], configNames: [], decisions: [] };
    const dataDir = join(root, 'data');
    const startedAt = Date.now();
    let tool: string | undefined;
    let checked = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const gateway = await startGateway(dataDir, env());
      try {
        checked += await verify(gateway, ledger, tool);
        ledger.configInFlight = undefined;
        tool ??= await addNotesServer(gateway);
        // After 10 to 40 more acknowledged writes, then 0 to 0.5 s: kills land at varied points (mid-call, mid-fsync, mid-decision).
        const acked = () => ledger.answers.length + ledger.projects.length + ledger.configNames.length + ledger.decisions.length;
        const load = { acked, minAcked: 10 + ((cycle * 7) % 31), extraMs: (cycle * 137) % 500, maxLoadMs: 60_000 };
        await loadThenKill(gateway, await workersFor(gateway, cycle, tool, ledger), ledger, load);
      } catch (error) {
        await gateway.kill9();
        throw new Error(`cycle ${cycle}: ${String(error)}; gateway output:\n${gateway.proc.output().slice(-4000)}`, { cause: error });
      }
    }
    const last = await startGateway(dataDir, env());
    checked += await verify(last, ledger, tool);
    await last.stop();
    const codes = ledger.answers.reduce<Record<string, number>>((n, a) => ({ ...n, [a.code]: (n[a.code] ?? 0) + 1 }), {});
    console.log(JSON.stringify({ cycles: CYCLES, acknowledged: { calls: ledger.answers.length, codes, projects: ledger.projects.length, configRenames: ledger.configNames.length, decisions: ledger.decisions.length }, checksAfterRestarts: checked, durationMs: Date.now() - startedAt }));
    expect(ledger.answers.filter((a) => a.code === 'ok').length).toBeGreaterThan(CYCLES);
    expect(ledger.decisions.length).toBeGreaterThan(0);
  });
});
