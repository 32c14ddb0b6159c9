import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../gateway/core/index.js';
import { SqlDatabase } from '../../storage/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { startFileServer, syntheticBytes, type FileServer } from '../fixtures/fileServer.js';
import { startGateway, type GatewayProcess } from './gatewayProcess.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a kill -9 between a download\'s commit and its job\'s completion', () => {
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

  it('completes the job at restart from the file in place, instead of failing it with 0 bytes kept and a retry that can only conflict', { timeout: 300_000 }, async () => {
    provider = await startReplayServer(arxivReplay);
    files = await startFileServer();
    root = await mkdtemp(join(tmpdir(), 'scigate-dl-commit-'));
    const dataDir = join(root, 'data');
    const env = {
      SCIGATE_ARXIV_BASE_URL: `${provider.baseUrl}/api`,
      SCIGATE_SOURCE_LIMITS: '{"arxiv":{"minTimeMs":0}}',
      SCIGATE_DOWNLOAD_MIRRORS: JSON.stringify({ 'https://arxiv.org': files.origin }),
    };
    gateway = await startGateway(dataDir, env);
    const client = await gateway.connect('committing-agent');
    const session = await vi.waitFor(async () => {
      const { body } = await gateway!.api.get('/api/sessions');
      const found = body.sessions.find((s: any) => s.clientName === 'committing-agent');
      if (!found) throw new Error('no session yet');
      return found;
    }, { timeout: 60_000, interval: 50 });
    await gateway.api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    const search: any = await client.callTool({ name: 'mcp__arxiv__search', arguments: { query: 'testing' } });
    const candidate = search.structuredContent.artifacts[0];
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), syntheticBytes(0, 300_000 - 9)]);
    files.serve(new URL(candidate.url).pathname, { body });
    const result: any = await client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: search.structuredContent.invocationId, candidateId: candidate.id } });
    expect(result.isError).toBeFalsy();
    await gateway.kill9();
    // What a kill -9 leaves when it lands after the part file was renamed into place but before the
    // job's `completed` line reached the journal: the job as it was persisted last, `verifying`.
    const db = await SqlDatabase.open({ dataDir, log: silentLogger });
    expect(await db.write("UPDATE download_jobs SET state = 'verifying', sha256 = NULL, ended_at = NULL WHERE state = 'completed'")).toBe(1);
    await db.close();

    gateway = await startGateway(dataDir, env);
    const { body: listed } = await gateway.api.get(`/api/sessions/${session.id}/download-jobs`);
    expect(listed.jobs[0]).toMatchObject({ state: 'completed', bytesDone: body.length, totalBytes: body.length, sha256: sha256(body), errorCode: null });
    const final = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', candidate.filename);
    expect(sha256(await readFile(final))).toBe(sha256(body));
  });
});
