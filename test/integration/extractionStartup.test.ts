import { afterEach, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type ExtractionJobRecord } from '../../gateway/core/index.js';
import { INTERRUPTED_REASON } from '../../gateway/extraction/index.js';
import { openStorage } from '../../storage/index.js';
import { startTestGateway } from '../fixtures/testGateway.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function job(id: string, status: ExtractionJobRecord['status']): ExtractionJobRecord {
  return {
    id, sessionId: 'ses_old', projectId: 'default', invocationId: null, input: 'path', downloadJobId: null, pdfPath: 'uploads/a.pdf',
    sha256: 'c'.repeat(64), sizeBytes: 10, status, pageCount: null, characterCount: null, textPath: null, manifestPath: null, warnings: [],
    errorCode: null, errorMessage: null, createdAt: '2026-12-01T00:00:00.000Z', startedAt: null, endedAt: null,
  };
}

it('a gateway starting over jobs a previous run left queued or running fails them with a reason, and leaves finished ones', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-extraction-startup-'));
  dirs.push(dir);
  const before = await openStorage({ dataDir: dir, log: silentLogger });
  await before.extractions.addJob(job('ext_running', 'running'));
  await before.extractions.addJob(job('ext_queued', 'queued'));
  await before.extractions.addJob(job('ext_done', 'completed'));
  await before.close();

  const gateway = await startTestGateway({}, dir);
  await gateway.dispose();

  const after = await openStorage({ dataDir: dir, log: silentLogger });
  try {
    for (const id of ['ext_running', 'ext_queued']) {
      expect(await after.extractions.getJob(id)).toMatchObject({ status: 'failed', errorCode: 'interrupted', errorMessage: INTERRUPTED_REASON });
    }
    expect((await after.extractions.getJob('ext_done'))?.status).toBe('completed');
  } finally {
    await after.close();
  }
});
