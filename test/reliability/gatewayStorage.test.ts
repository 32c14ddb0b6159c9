import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { answerOf, auditedCode, auditedInvocations, startGateway, type Answer, type GatewayProcess } from './gatewayProcess.js';
import { capFileSize } from './storageFaults.js';

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

const env = () => ({ SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`, SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}' });
const dataDir = () => join(root, 'data');
const projectIds = async (g: GatewayProcess) => ((await g.api.get('/api/projects')).body.projects as Array<{ id: string }>).map((p) => p.id);

/**
 * One arXiv search of the replayed query. Each `maxResults` is a call of its own (a cache miss), so
 * it is answered only once its intent is durable; a repeat is a cache hit, which may be answered
 * before (docs/storage.md, promise 4), so whether a hit on a full disk hears storage_unavailable
 * depends on timing.
 */
async function call(client: Client, maxResults = 10): Promise<Answer> {
  return answerOf(await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing', maxResults } }));
}

describe('the real gateway and its journal', () => {
  it('a torn journal tail left by a crash does not swallow the writes acknowledged after the next start', { timeout: 300_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-torn-gw-'));
    gateway = await startGateway(dataDir(), env());
    expect(await gateway.stop()).toBe(0);
    await appendFile(join(dataDir(), 'scigate.db.journal'), '{"seq":7,"sql":"INSERT INTO proj');

    gateway = await startGateway(dataDir(), env());
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => gateway!.api.post('/api/projects', { id: `torn-${i}` })));
    expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
    await gateway.kill9();

    gateway = await startGateway(dataDir(), env());
    const ids = await projectIds(gateway);
    for (let i = 0; i < 20; i++) expect(ids).toContain(`torn-${i}`);
    expect((await readdir(dataDir())).filter((f) => f.startsWith('scigate.db.journal.torn-'))).toHaveLength(1);
  });

  it('a Session left open by a kill -9 is ended at the next start, and its cut-off upload removed', { timeout: 300_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-open-gw-'));
    gateway = await startGateway(dataDir(), env());
    await gateway.connect('left-open');
    const { sessions } = (await gateway.api.get('/api/sessions')).body as { sessions: Array<{ id: string; clientName: string; endedAt: string | null }> };
    const open = sessions.find((s) => s.clientName === 'left-open')!;
    expect(open.endedAt).toBeNull();
    // An upload cut off by the kill leaves its temp file; a download leaves a part file to resume.
    const workspace = join(dataDir(), 'workspaces', open.id);
    const temps = join(dataDir(), 'workspaces', '.writes');
    await mkdir(temps, { recursive: true });
    await writeFile(join(temps, '0123456789abcdef.part'), 'half an upload');
    await mkdir(join(workspace, 'uploads'), { recursive: true });
    await writeFile(join(workspace, 'uploads/paper.pdf.part'), 'half a download');
    await gateway.kill9();

    gateway = await startGateway(dataDir(), env());
    const after = (await gateway.api.get(`/api/sessions/${open.id}`)).body as { session: { endedAt: string | null } };
    expect(after.session.endedAt).toEqual(expect.any(String));
    expect(await readdir(join(workspace, 'uploads'))).toEqual(['paper.pdf.part']);
    expect(await readdir(temps)).toEqual([]);
  });

  it('on a full disk it answers storage_unavailable (MCP) and 503 (admin), never acknowledges what it cannot keep, and heals', { timeout: 300_000 }, async () => {
    root = await mkdtemp(join(tmpdir(), 'scigate-full-gw-'));
    gateway = await startGateway(dataDir(), env());
    const client = await gateway.connect('full-disk');
    const answers: Answer[] = [await call(client)];
    expect(answers[0]!.code).toBe('ok');
    const journalBytes = (await stat(join(dataDir(), 'scigate.db.journal'))).size;
    // A file-size cap on the gateway stands in for a full disk (EFBIG where a disk says ENOSPC).
    capFileSize(gateway.pid, journalBytes + 4096);
    for (let round = 0; round < 10; round++) {
      answers.push(...(await Promise.all([1, 2, 3].map((n) => call(client, 10 + round * 3 + n)))));
    }
    const created: Array<{ id: string; status: number; code?: string }> = [];
    for (let i = 0; i < 40 && !created.some((c) => c.status === 503); i++) {
      const response = await gateway.api.post('/api/projects', { id: `full-${i}`, name: 'n'.repeat(200) });
      created.push({ id: `full-${i}`, status: response.status, code: response.body?.error?.code });
    }
    const codes = new Set(answers.map((a) => a.code));
    expect(codes.has('storage_unavailable')).toBe(true);
    expect([...codes].every((c) => c === 'ok' || c === 'storage_unavailable')).toBe(true);
    expect(created.find((c) => c.status === 503)).toMatchObject({ code: 'storage_unavailable' });
    expect(created.every((c) => c.status === 201 || c.status === 503)).toBe(true);

    capFileSize(gateway.pid, undefined);
    for (let i = 0; i < 3; i++) answers.push(await call(client, 50 + i));
    expect(answers.slice(-3).map((a) => a.code)).toEqual(['ok', 'ok', 'ok']);
    expect((await gateway.api.post('/api/projects', { id: 'after-full' })).status).toBe(201);
    // Every call above waited for its intent; their completions become durable within the commit
    // window. One more call that is not a hit is answered only once its intent is durable, and the
    // audit log writes in order: after it, every earlier line is on disk too.
    await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'durability barrier' } });
    await gateway.kill9();

    gateway = await startGateway(dataDir(), env());
    const audit = await auditedInvocations(gateway.api);
    for (const answer of answers) {
      const row = audit.get(answer.invocationId);
      // An acknowledged call is audited as answered; a refused one is audited as refused, or not at all.
      if (answer.code === 'ok') expect(row && auditedCode(row)).toBe('ok');
      else if (row) expect(auditedCode(row)).toBe(answer.code);
    }
    const ids = await projectIds(gateway);
    for (const c of created) expect(ids.includes(c.id)).toBe(c.status === 201);
    expect(ids).toContain('after-full');
  });
});
