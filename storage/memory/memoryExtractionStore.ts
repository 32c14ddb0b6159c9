import type {
  ExtractionJobRecord, ExtractionJobStatus, ExtractionJobUpdate, ExtractionStore, PaperAcquisitionRecord,
} from '../../gateway/core/index.js';
import { INTERRUPTED_ERROR_CODE } from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** ExtractionJobs and PaperAcquisitions in memory, with the embedded store's semantics. */
export class MemoryExtractionStore implements ExtractionStore {
  private readonly jobsById = new Map<string, ExtractionJobRecord>();
  private readonly acquisitionsById = new Map<string, PaperAcquisitionRecord>();

  async addJob(job: ExtractionJobRecord): Promise<void> {
    if (this.jobsById.has(job.id)) throw duplicateKey('extraction_jobs', job.id);
    this.jobsById.set(job.id, copy(job));
  }

  async updateJob(id: string, from: readonly ExtractionJobStatus[], update: ExtractionJobUpdate): Promise<boolean> {
    // Test and set with no await between: the memory form of `UPDATE … WHERE status IN (…)`.
    const job = this.jobsById.get(id);
    if (!job || !from.includes(job.status) || Object.keys(update).length === 0) return false;
    Object.assign(job, copy(update));
    return true;
  }

  async getJob(id: string): Promise<ExtractionJobRecord | undefined> {
    const job = this.jobsById.get(id);
    return job && copy(job);
  }

  async listJobs(sessionId: string): Promise<ExtractionJobRecord[]> {
    return byKey([...this.jobsById.values()].filter((j) => j.sessionId === sessionId), (j) => j.createdAt).map(copy);
  }

  async findCompleted(sessionId: string, sha256: string): Promise<ExtractionJobRecord | undefined> {
    const done = (await this.listJobs(sessionId)).filter((j) => j.sha256 === sha256 && j.status === 'completed');
    return done[0];
  }

  async failUnfinished(at: string, reason: string): Promise<number> {
    const unfinished = [...this.jobsById.values()].filter((j) => j.status === 'queued' || j.status === 'running');
    for (const job of unfinished) Object.assign(job, { status: 'failed', errorCode: INTERRUPTED_ERROR_CODE, errorMessage: reason, endedAt: at });
    return unfinished.length;
  }

  async addAcquisition(acquisition: PaperAcquisitionRecord): Promise<void> {
    const taken = [...this.acquisitionsById.values()].some((a) => a.extractionJobId === acquisition.extractionJobId);
    if (this.acquisitionsById.has(acquisition.id) || taken) throw duplicateKey('paper_acquisitions', acquisition.id);
    this.acquisitionsById.set(acquisition.id, copy(acquisition));
  }

  async getAcquisition(id: string): Promise<PaperAcquisitionRecord | undefined> {
    const acquisition = this.acquisitionsById.get(id);
    return acquisition && copy(acquisition);
  }

  async findAcquisitionByJob(extractionJobId: string): Promise<PaperAcquisitionRecord | undefined> {
    const acquisition = [...this.acquisitionsById.values()].find((a) => a.extractionJobId === extractionJobId);
    return acquisition && copy(acquisition);
  }

  async listAcquisitions(sessionId: string): Promise<PaperAcquisitionRecord[]> {
    return byKey([...this.acquisitionsById.values()].filter((a) => a.sessionId === sessionId), (a) => a.createdAt).map(copy);
  }
}
