import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { syntheticBytes } from '../fixtures/fileServer.js';
import { startDownloadingGateway, type DownloadingGateway } from './downloadingGateway.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a download across a kill -9 of the gateway', () => {
  let g: DownloadingGateway | undefined;
  afterEach(async () => {
    await g?.dispose();
  });

  it('is marked failed (interrupted, bytes kept) at restart, never left running, and a retry completes it from the part file', { timeout: 300_000 }, async () => {
    g = await startDownloadingGateway('killed-agent');
    const { client, candidate, dataDir, session } = g;
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), syntheticBytes(0, 4_000_000 - 9)]);
    g.files.serve(new URL(candidate.url).pathname, { body, holdAt: 1_600_000 });
    const running = client.callTool({ name: 'artifact_download', arguments: { mcpInvocationId: g.invocationId, candidateId: candidate.id } });
    running.catch(() => {});
    await g.files.whenHeld();
    const part = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', `${candidate.filename}.part`);
    // Bytes reach the part file in 1 MiB batches: at least one batch is on disk before the kill.
    await vi.waitFor(async () => expect((await stat(part)).size).toBeGreaterThanOrEqual(1024 * 1024), { timeout: 60_000, interval: 20 });
    await g.gateway.kill9();
    const kept = (await stat(part)).size;
    expect(kept).toBeLessThanOrEqual(1_600_000);

    const gateway = await g.restart();
    const { body: listed } = await gateway.api.get(`/api/sessions/${session.id}/download-jobs`);
    const job = listed.jobs[0];
    expect(job).toMatchObject({ state: 'failed', errorCode: 'interrupted', bytesDone: kept });
    expect(job.errorMessage).toContain('retry');
    // The resumed request starts below the hold point: let the file server send the rest this time.
    g.files.release();
    const retried = await gateway.api.post(`/api/download-jobs/${job.id}/retry`);
    expect(retried.status).toBe(202);
    const done = await vi.waitFor(async () => {
      const { body: current } = await gateway.api.get(`/api/download-jobs/${job.id}`);
      if (current.job.state !== 'completed') throw new Error(`job is ${current.job.state}`);
      return current.job;
    }, { timeout: 60_000, interval: 50 });
    expect(done).toMatchObject({ bytesDone: body.length, sha256: sha256(body) });
    expect(g.files.requests.map((r) => r.range)).toEqual([null, `bytes=${kept}-`]);
    const final = join(dataDir, 'workspaces', session.id, 'downloads/arxiv', candidate.filename);
    expect(sha256(await readFile(final))).toBe(sha256(body));
    await expect(stat(part)).rejects.toThrow();
  });
});
