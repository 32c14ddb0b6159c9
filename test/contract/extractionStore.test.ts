import { describe, expect, it } from 'vitest';
import type { ExtractionJobRecord, ExtractionJobUpdate, PaperAcquisitionRecord } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

function job(overrides: Partial<ExtractionJobRecord> = {}): ExtractionJobRecord {
  return {
    id: 'ext_1', sessionId: 'ses_x', projectId: 'default', invocationId: 'inv_1', input: 'path', downloadJobId: null,
    pdfPath: 'uploads/paper.pdf', sha256: 'a'.repeat(64), sizeBytes: 1234, status: 'queued', pageCount: null, characterCount: null,
    textPath: null, manifestPath: null, warnings: [], errorCode: null, errorMessage: null, createdAt: '2026-12-01T00:00:00.000Z',
    startedAt: null, endedAt: null, ...overrides,
  };
}

function acquisition(overrides: Partial<PaperAcquisitionRecord> = {}): PaperAcquisitionRecord {
  return {
    id: 'acq_1', sessionId: 'ses_x', projectId: 'default', extractionJobId: 'ext_1', downloadJobId: 'dl_1', pdfPath: 'downloads/p.pdf',
    sha256: 'a'.repeat(64), title: 'Über Kinetics', authors: ['Zoë Brontë', 'Jürgen Groß'], doi: '10.1234/x', createdAt: '2026-12-01T00:01:00.000Z',
    ...overrides,
  };
}

const completed: ExtractionJobUpdate = {
  status: 'completed', pageCount: 3, characterCount: 4000, textPath: 'extractions/paper.txt', manifestPath: 'extractions/paper.manifest.json',
  warnings: ['scanned_page'], endedAt: '2026-12-01T00:00:05.000Z',
};

/** What every ExtractionStore must do. */
function extractionStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('walks a job queued → running → completed; a transition from the wrong state writes nothing', async () => {
    const { extractions } = (await open()).storage;
    await extractions.addJob(job());
    expect(await extractions.updateJob('ext_1', ['queued'], { status: 'running', startedAt: '2026-12-01T00:00:01.000Z' })).toBe(true);
    expect(await extractions.updateJob('ext_1', ['queued'], { status: 'cancelled' })).toBe(false);
    expect(await extractions.updateJob('ext_1', ['running'], completed)).toBe(true);
    expect(await extractions.updateJob('ext_1', ['running'], { status: 'failed', errorCode: 'pdf_corrupt' })).toBe(false);
    expect(await extractions.getJob('ext_1')).toEqual(job({ ...completed, startedAt: '2026-12-01T00:00:01.000Z', warnings: ['scanned_page'] }));
    expect(await extractions.updateJob('ext_missing', ['queued'], { status: 'running' })).toBe(false);
  });

  it('of two racing transitions exactly one wins', async () => {
    const { extractions } = (await open()).storage;
    await extractions.addJob(job({ status: 'running' }));
    const results = await Promise.all([
      extractions.updateJob('ext_1', ['running'], completed),
      extractions.updateJob('ext_1', ['running'], { status: 'cancelled', endedAt: '2026-12-01T00:00:02.000Z' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await extractions.getJob('ext_1'))?.status).toBe(results[0] ? 'completed' : 'cancelled');
  });

  it("lists a Session's jobs in creation order and finds the first completed extraction of the same bytes", async () => {
    const { extractions } = (await open()).storage;
    await extractions.addJob(job({ id: 'ext_b', createdAt: '2026-12-01T00:00:02.000Z', status: 'completed' }));
    await extractions.addJob(job({ id: 'ext_a', createdAt: '2026-12-01T00:00:01.000Z', status: 'failed' }));
    await extractions.addJob(job({ id: 'ext_c', createdAt: '2026-12-01T00:00:03.000Z', status: 'completed' }));
    await extractions.addJob(job({ id: 'ext_other', sessionId: 'ses_other', status: 'completed' }));
    expect((await extractions.listJobs('ses_x')).map((j) => j.id)).toEqual(['ext_a', 'ext_b', 'ext_c']);
    expect((await extractions.findCompleted('ses_x', 'a'.repeat(64)))?.id).toBe('ext_b');
    expect(await extractions.findCompleted('ses_x', 'b'.repeat(64))).toBeUndefined();
    expect((await extractions.findCompleted('ses_other', 'a'.repeat(64)))?.id).toBe('ext_other');
  });

  it('fails jobs left queued or running with the reason, and leaves finished ones alone; it survives a restart', async () => {
    const opened = await open();
    const { extractions } = opened.storage;
    await extractions.addJob(job({ id: 'ext_q' }));
    await extractions.addJob(job({ id: 'ext_r', status: 'running' }));
    await extractions.addJob(job({ id: 'ext_done', ...completed }));
    expect(await extractions.failUnfinished('2026-12-01T01:00:00.000Z', 'the gateway stopped')).toBe(2);
    const after = (await opened.reopen()).storage.extractions;
    for (const id of ['ext_q', 'ext_r']) {
      expect(await after.getJob(id)).toMatchObject({ status: 'failed', errorCode: 'interrupted', errorMessage: 'the gateway stopped', endedAt: '2026-12-01T01:00:00.000Z' });
    }
    expect((await after.getJob('ext_done'))?.status).toBe('completed');
    expect(await after.failUnfinished('2026-12-01T02:00:00.000Z', 'again')).toBe(0);
  });

  it('stores acquisitions (one per extraction job) and finds them by id, job and Session', async () => {
    const opened = await open();
    const { extractions } = opened.storage;
    await extractions.addAcquisition(acquisition());
    await expect(extractions.addAcquisition(acquisition({ id: 'acq_2' }))).rejects.toThrow();
    await extractions.addAcquisition(acquisition({ id: 'acq_0', extractionJobId: 'ext_0', downloadJobId: null, createdAt: '2026-12-01T00:00:30.000Z' }));
    const after = (await opened.reopen()).storage.extractions;
    expect(await after.getAcquisition('acq_1')).toEqual(acquisition());
    expect((await after.findAcquisitionByJob('ext_0'))?.id).toBe('acq_0');
    expect(await after.findAcquisitionByJob('ext_none')).toBeUndefined();
    expect((await after.listAcquisitions('ses_x')).map((a) => a.id)).toEqual(['acq_0', 'acq_1']);
    expect(await after.listAcquisitions('ses_other')).toEqual([]);
  });

  it('a job survives a restart with every field', async () => {
    const opened = await open();
    await opened.storage.extractions.addJob(job({ input: 'artifact_job', downloadJobId: 'dl_9', ...completed, errorMessage: null }));
    const after = (await opened.reopen()).storage.extractions;
    expect(await after.getJob('ext_1')).toEqual(job({ input: 'artifact_job', downloadJobId: 'dl_9', ...completed, warnings: ['scanned_page'] }));
  });
}

for (const adapter of storageAdapters) describe(`ExtractionStore contract: ${adapter.name}`, () => extractionStoreContract(adapter));
