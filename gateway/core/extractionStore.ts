import type { ExtractionJobRecord, ExtractionJobStatus, ExtractionJobUpdate, PaperAcquisitionRecord } from './extractionRecords.js';

/** Persists ExtractionJobs and PaperAcquisitions; every write is durable when its promise resolves. */
export interface ExtractionStore {
  addJob(job: ExtractionJobRecord): Promise<void>;
  /**
   * Applies a transition when the job's status is one of `from` (a conditional update, so of two
   * racing writers one wins); false and nothing written otherwise.
   */
  updateJob(id: string, from: readonly ExtractionJobStatus[], update: ExtractionJobUpdate): Promise<boolean>;
  getJob(id: string): Promise<ExtractionJobRecord | undefined>;
  /** The Session's jobs in creation order. */
  listJobs(sessionId: string): Promise<ExtractionJobRecord[]>;
  /** The Session's earliest completed job over these bytes (sha256 hex), for "extracted before". */
  findCompleted(sessionId: string, sha256: string): Promise<ExtractionJobRecord | undefined>;
  /**
   * Fails every job still queued or running (start-up after a crash or stop) with `reason`; resolves
   * with how many. With `alive`, only jobs whose owner replica is not in it.
   */
  failUnfinished(at: string, reason: string, alive?: readonly string[]): Promise<number>;
  addAcquisition(acquisition: PaperAcquisitionRecord): Promise<void>;
  getAcquisition(id: string): Promise<PaperAcquisitionRecord | undefined>;
  /** The acquisition an extraction job produced, if it completed. */
  findAcquisitionByJob(extractionJobId: string): Promise<PaperAcquisitionRecord | undefined>;
  /** The Session's acquisitions in creation order. */
  listAcquisitions(sessionId: string): Promise<PaperAcquisitionRecord[]>;
}

/** The errorCode a job left unfinished at start-up is failed with (as a download job's is). */
export const INTERRUPTED_ERROR_CODE = 'interrupted';
