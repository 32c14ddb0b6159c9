import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { answerOf, auditedCode, auditedInvocations, startGateway, type Answer, type GatewayProcess } from './gatewayProcess.js';

let provider: ReplayServer;
let root: string;
let gateway: GatewayProcess | undefined;

beforeAll(async () => {
  provider = await startReplayServer(arxivReplay);
});
afterAll(async () => {
  await provider.close();
});
afterEach(async () => {
  await gateway?.kill9();
  gateway = undefined;
  if (root) await rm(root, { recursive: true, force: true });
});

const env = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`, SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0,"concurrency":4,"queueDepth":16}}' });

interface Answered extends Answer {
  /** performance.now() when the client had the answer. */
  at: number;
}

/**
 * Calls until the client's transport fails (the gateway was killed): every call reaches the
 * upstream, since each asks for a page size not asked for before (no cache hit).
 */
async function callUntilKilled(client: Client, sizes: { next: number }, answers: Answered[]): Promise<void> {
  for (;;) {
    const maxResults = sizes.next++;
    if (maxResults > 100) return;
    try {
      const result = await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing', maxResults } });
      answers.push({ ...answerOf(result), at: performance.now() });
    } catch {
      return;
    }
  }
}

describe('kill -9 at a random moment during tool calls', () => {
  it('every call the client got an answer for has its row after the restart; one answered just before the kill may read interrupted', { timeout: 600_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-audit-crash-'));
    const dataDir = join(root, 'data');
    const answered: Array<Answered & { killedAt: number }> = [];
    for (let round = 0; round < 3; round++) {
      gateway = await startGateway(dataDir, env());
      const clients = await Promise.all([0, 1, 2, 3].map((i) => gateway!.connect(`crash-${round}-${i}`)));
      const answers: Answered[] = [];
      const sizes = { next: 1 };
      const workers = clients.map((client) => callUntilKilled(client, sizes, answers));
      await expect.poll(() => answers.length, { timeout: 60_000 }).toBeGreaterThan(3);
      // A random moment while calls are in flight.
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 400));
      const killedAt = performance.now();
      await gateway.kill9();
      await Promise.all(workers);
      answered.push(...answers.map((a) => ({ ...a, killedAt })));
    }
    gateway = await startGateway(dataDir, env());
    const audit = await auditedInvocations(gateway.api);
    expect(answered.length).toBeGreaterThan(12);
    for (const answer of answered) {
      const row = audit.get(answer.invocationId);
      expect(row, `call ${answer.invocationId} was answered ${answer.code} but has no audit row`).toBeDefined();
      if (row.status === 'interrupted') {
        // Allowed only within the completion's commit window before the kill (measured generously:
        // the client hears the answer after the gateway sent it, on a loaded machine).
        expect(answer.killedAt - answer.at).toBeLessThan(2000);
      } else {
        expect(auditedCode(row)).toBe(answer.code);
      }
    }
    // No row stays invisible: the intents the kills left open (four callers were always in flight)
    // were marked interrupted at the next start.
    const rows = [...audit.values()];
    for (const row of rows) expect(['ok', 'error', 'cancelled', 'interrupted']).toContain(row.status);
    expect(rows.filter((row) => row.status === 'interrupted').length).toBeGreaterThan(0);
  });
});

describe('kill -9 during dangerous calls allowed without asking anyone (always_allow)', () => {
  const hostile = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));

  /** Calls the custom echo with text no other call used, until the gateway is killed. */
  async function echoUntilKilled(client: Client, tool: string, next: { n: number }, answers: Answered[]): Promise<void> {
    for (;;) {
      const n = next.n++;
      if (n > 400) return;
      try {
        const result = await client.callTool({ name: tool, arguments: { text: 'x'.repeat(n) } });
        answers.push({ ...answerOf(result), at: performance.now() });
      } catch {
        return;
      }
    }
  }

  it('every answered call has its authorization on disk: the action overlapped its write, the answer did not', { timeout: 600_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-audit-crash-allow-'));
    const dataDir = join(root, 'data');
    const answered: Answered[] = [];
    let tool = '';
    for (let round = 0; round < 3; round++) {
      gateway = await startGateway(dataDir, env());
      if (round === 0) {
        const created = await gateway.api.post('/api/mcp/servers', {
          name: 'Echo', transport: 'stdio', command: process.execPath, args: [hostile], enabled: true, limits: { concurrency: 4, queueDepth: 16 },
        });
        expect(created.status).toBe(201);
        tool = created.body.server.tools.find((t: any) => t.upstreamName === 'echo').name;
      }
      const names = [0, 1, 2, 3].map((i) => `allow-${round}-${i}`);
      const clients = await Promise.all(names.map((name) => gateway!.connect(name)));
      const { body } = await gateway.api.get('/api/sessions');
      for (const session of body.sessions.filter((s: any) => names.includes(s.clientName))) {
        expect((await gateway.api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' })).status).toBe(200);
      }
      const answers: Answered[] = [];
      const next = { n: 1 };
      const workers = clients.map((client) => echoUntilKilled(client, tool, next, answers));
      await expect.poll(() => answers.length, { timeout: 60_000 }).toBeGreaterThan(3);
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 400));
      await gateway.kill9();
      await Promise.all(workers);
      answered.push(...answers);
    }
    gateway = await startGateway(dataDir, env());
    const { body } = await gateway.api.get('/api/sessions');
    const authorized = new Set<string>();
    for (const session of body.sessions) {
      const listed = await gateway.api.get(`/api/sessions/${session.id}/authorizations`);
      for (const a of listed.body.authorizations) authorized.add(a.invocationId);
    }
    const audit = await auditedInvocations(gateway.api);
    expect(answered.filter((a) => a.code === 'ok').length).toBeGreaterThan(12);
    for (const answer of answered) {
      expect(audit.get(answer.invocationId), `call ${answer.invocationId} was answered but has no audit row`).toBeDefined();
      expect(authorized.has(answer.invocationId), `call ${answer.invocationId} was answered but its authorization was lost`).toBe(true);
    }
  });
});

