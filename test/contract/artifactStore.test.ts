import { describe, expect, it } from 'vitest';
import type { ArtifactPlanRecord, DownloadJobRecord } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

const at = (s: number) => new Date(Date.parse('2026-12-01T00:00:00.000Z') + s * 1000).toISOString();

function plan(overrides: Partial<ArtifactPlanRecord> = {}): ArtifactPlanRecord {
  return {
    id: 'plan_1', sessionId: 'ses_1', projectId: 'default', invocationId: 'inv_dl', sourceInvocationId: 'inv_search', candidateId: 'cand_1',
    sourceId: 'arxiv', sourceRecordId: '2401.00001',
    candidate: {
      id: 'cand_1', sourceId: 'arxiv', sourceRecordId: '2401.00001', url: 'https://arxiv.org/pdf/2401.00001', kind: 'pdf',
      mediaType: 'application/pdf', filename: '2401.00001.pdf', license: 'CC-BY-4.0', sizeBytes: 1234, checksum: { algorithm: 'md5', value: 'ab' },
    },
    destinationPath: 'downloads/arxiv/2401.00001.pdf', status: 'awaiting_approval', authorizationId: null, createdAt: at(0), decidedAt: null,
    ...overrides,
  };
}

function job(overrides: Partial<DownloadJobRecord> = {}): DownloadJobRecord {
  return {
    id: 'job_1', planId: 'plan_1', sessionId: 'ses_1', projectId: 'default', sourceId: 'arxiv', sourceRecordId: '2401.00001', candidateId: 'cand_1',
    url: 'https://arxiv.org/pdf/2401.00001', destinationPath: 'downloads/arxiv/2401.00001.pdf', mediaType: 'application/pdf', license: 'CC-BY-4.0',
    state: 'queued', bytesDone: 0, totalBytes: null, sha256: null, expectedChecksum: 'md5:ab', attempts: 0, errorCode: null, errorMessage: null,
    authorizationId: 'pauth_1', createdAt: at(1), updatedAt: at(1), endedAt: null, ...overrides,
  };
}

/** What every ArtifactStore must do. */
function artifactStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('reads back a plan exactly (the candidate JSON included) and records its decision', async () => {
    const { artifacts } = (await open()).storage;
    await artifacts.addPlan(plan());
    expect(await artifacts.getPlan('plan_1')).toEqual(plan());
    expect(await artifacts.decidePlan('plan_1', { status: 'approved', authorizationId: 'pauth_1', decidedAt: at(5) })).toBe(true);
    expect(await artifacts.getPlan('plan_1')).toEqual(plan({ status: 'approved', authorizationId: 'pauth_1', decidedAt: at(5) }));
    expect(await artifacts.decidePlan('plan_missing', { status: 'denied', authorizationId: null, decidedAt: at(5) })).toBe(false);
    expect(await artifacts.getPlan('plan_missing')).toBeUndefined();
    await expect(artifacts.addPlan(plan())).rejects.toThrow();
  });

  it('persists every job transition with the bytes done, and lists by Session and by state', async () => {
    const { artifacts } = (await open()).storage;
    await artifacts.addJob(job());
    await artifacts.addJob(job({ id: 'job_2', createdAt: at(2), updatedAt: at(2) }));
    await artifacts.addJob(job({ id: 'job_other', sessionId: 'ses_2' }));
    const running = await artifacts.updateJob('job_1', { state: 'running', attempts: 1, updatedAt: at(3) });
    expect(running).toEqual(job({ state: 'running', attempts: 1, updatedAt: at(3) }));
    await artifacts.updateJob('job_1', { bytesDone: 4096, totalBytes: 8192, updatedAt: at(4) });
    const done = await artifacts.updateJob('job_1', { state: 'completed', bytesDone: 8192, sha256: 'f'.repeat(64), endedAt: at(6), updatedAt: at(6) });
    expect(done).toMatchObject({ state: 'completed', bytesDone: 8192, totalBytes: 8192, sha256: 'f'.repeat(64), attempts: 1, endedAt: at(6) });
    await artifacts.updateJob('job_2', { state: 'failed', errorCode: 'upstream_error', errorMessage: 'checksum', updatedAt: at(7), endedAt: at(7) });
    expect(await artifacts.updateJob('job_missing', { state: 'failed', updatedAt: at(7) })).toBeUndefined();
    expect((await artifacts.listJobs('ses_1')).map((j) => j.id)).toEqual(['job_1', 'job_2']);
    expect((await artifacts.listJobsIn(['queued', 'running'])).map((j) => j.id)).toEqual(['job_other']);
    expect((await artifacts.listJobsIn(['failed', 'completed'])).map((j) => j.id)).toEqual(['job_1', 'job_2']);
    expect(await artifacts.listJobsIn([])).toEqual([]);
    expect((await artifacts.listPlans('ses_1'))).toEqual([]);
  });

  it('keeps plans and jobs across a restart', async () => {
    const opened = await open();
    await opened.storage.artifacts.addPlan(plan());
    await opened.storage.artifacts.addJob(job());
    await opened.storage.artifacts.updateJob('job_1', { state: 'running', bytesDone: 10, updatedAt: at(2) });
    const { artifacts } = (await opened.reopen()).storage;
    expect(await artifacts.listPlans('ses_1')).toEqual([plan()]);
    expect(await artifacts.getJob('job_1')).toMatchObject({ state: 'running', bytesDone: 10 });
  });
}

describe.each(storageAdapters)('ArtifactStore contract: $name', (adapter) => artifactStoreContract(adapter));
