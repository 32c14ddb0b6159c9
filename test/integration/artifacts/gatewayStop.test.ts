import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDownloadGateway, type DownloadGateway } from '../../fixtures/downloadGateway.js';

describe('stopping the gateway during a download', () => {
  let g: DownloadGateway | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    g?.files.release();
    await g?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('ends the transfer before stop resolves, keeps the part file, and the next start marks the job interrupted for a resuming retry', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-dl-stop-'));
    g = await startDownloadGateway({ dataDir });
    const { client, sessionId } = await g.agent('stopped-agent', { approvalMode: 'always_allow' });
    await g.downloadHeld(client, 'long.bin', { size: 3_000_000, holdAt: 1_500_000 });
    const part = join(dataDir, 'workspaces', sessionId, 'downloads/files/long.bin.part');
    // Bytes reach the part file in 1 MiB batches: one is on disk before the stop.
    await vi.waitFor(async () => expect((await stat(part)).size).toBeGreaterThanOrEqual(1024 * 1024), { timeout: 60_000, interval: 20 });

    await g.gateway.stop();
    // Nothing of the download outlives the stop: the file server's response was cut by then.
    expect(g.files.requests[0]).toMatchObject({ path: '/long.bin', endSeq: expect.any(Number) });
    const kept = (await stat(part)).size;
    expect(kept).toBeLessThanOrEqual(1_500_000);

    const files = g.files;
    await files.close();
    await g.offList.close();
    g = await startDownloadGateway({ dataDir });
    const { body: listed } = await g.api.get(`/api/sessions/${sessionId}/download-jobs`);
    expect(listed.jobs[0]).toMatchObject({ state: 'failed', errorCode: 'interrupted', bytesDone: kept });
    expect((await stat(part)).size).toBe(kept);
  });
});
