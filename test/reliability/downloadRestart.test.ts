import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startFileServer, syntheticBytes, type FileServer } from '../fixtures/fileServer.js';
import { startGateway, type GatewayProcess } from './gatewayProcess.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a download across a kill -9 of the gateway', () => {
  let provider: ReplayServer | undefined;
  let files: FileServer | undefined;
  let gateway: GatewayProcess | undefined;
  let root: string | undefined;
  afterEach(async () => {
    await gateway?.kill9();
    await files?.close();
    await provider?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('is marked failed (interrupted, bytes kept) at restart, never left running, and a retry completes it from the part file', { timeout: 300_000 }, async () => {
    provider = await startReplayServer(arxivReplay);
    files = await startFileServer();
    root = await mkdtemp(join(tmpdir(), 'scigate-dl-kill-'));
    const dataDir = join(root, 'data');
    const env = {
      SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`,
      SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}',
      SCIGATE_DOWNLOAD_MIRRORS: JSON.stringify({ 'https://arxiv.org': files.origin }),
    };
    gateway = await startGateway(dataDir, env);
    const client = await gateway.connect('killed-agent');
    const session = await vi.waitFor(async () => {
      const { body } = await gateway!.api.get('/api/sessions');
      const found = body.sessions.find((s: any) => s.clientName === 'killed-agent');
      if (!found) throw new Error('no session yet');
      return found;
    }, { timeout: 60_000, interval: 50 });
    await gateway.api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    const search: any = await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } });
    const candidate = search.structuredContent.artifacts[0];
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), syntheticBytes(0, 4_000_000 - 9)]);
    files.serve(new URL(candidate.url).pathname, { body, holdAt: 1_600_000 });
    const running = client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: search.structuredContent.invocationId, candidateId: candidate.id } });
    running.catch(() => {});
    await files.whenHeld();
    const part = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', `${candidate.filename}.part`);
    // Bytes reach the part file in 1 MiB batches: at least one batch is on disk before the kill.
    await vi.waitFor(async () => expect((await stat(part)).size).toBeGreaterThanOrEqual(1024 * 1024), { timeout: 60_000, interval: 20 });
    await gateway.kill9();
    const kept = (await stat(part)).size;
    expect(kept).toBeLessThanOrEqual(1_600_000);

    gateway = await startGateway(dataDir, env);
    const { body: listed } = await gateway.api.get(`/api/sessions/${session.id}/download-jobs`);
    const job = listed.jobs[0];
    expect(job).toMatchObject({ state: 'failed', errorCode: 'interrupted', bytesDone: kept });
    expect(job.errorMessage).toContain('retry');
    // The resumed request starts below the hold point: let the file server send the rest this time.
    files.release();
    const retried = await gateway.api.post(`/api/download-jobs/${job.id}/retry`);
    expect(retried.status).toBe(202);
    const done = await vi.waitFor(async () => {
      const { body: current } = await gateway!.api.get(`/api/download-jobs/${job.id}`);
      if (current.job.state !== 'completed') throw new Error(`job is ${current.job.state}`);
      return current.job;
    }, { timeout: 60_000, interval: 50 });
    expect(done).toMatchObject({ bytesDone: body.length, sha256: sha256(body) });
    expect(files.requests.map((r) => r.range)).toEqual([null, `bytes=${kept}-`]);
    const final = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', candidate.filename);
    expect(sha256(await readFile(final))).toBe(sha256(body));
    await expect(stat(part)).rejects.toThrow();
  });
});
