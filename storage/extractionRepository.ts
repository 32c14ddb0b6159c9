import type {
  ExtractionInput, ExtractionJobRecord, ExtractionJobStatus, ExtractionJobUpdate, ExtractionStore, PaperAcquisitionRecord,
} from '../gateway/core/index.js';
import { INTERRUPTED_ERROR_CODE } from '../gateway/core/index.js';
import { integer, nullableInteger, nullableText, rowMapper, snakeCase, text, textAs, type Column } from './rowMapper.js';
import { ownerNotAlive, withOwner } from './replicaRepository.js';
import type { SqlExecutor, SqlParam } from './sqlExecutor.js';

/** A list of strings stored as a JSON array. */
const stringList: Column<string[]> = {
  toSql: (v) => JSON.stringify(v),
  fromSql: (v) => (v === null || v === undefined ? [] : (JSON.parse(String(v)) as string[])),
};

const jobColumns = {
  id: text,
  sessionId: text,
  projectId: text,
  invocationId: nullableText,
  input: textAs<ExtractionInput>(),
  downloadJobId: nullableText,
  pdfPath: text,
  sha256: text,
  sizeBytes: integer,
  status: textAs<ExtractionJobStatus>(),
  pageCount: nullableInteger,
  characterCount: nullableInteger,
  textPath: nullableText,
  manifestPath: nullableText,
  warnings: stringList,
  errorCode: nullableText,
  errorMessage: nullableText,
  createdAt: text,
  startedAt: nullableText,
  endedAt: nullableText,
};
const jobs = rowMapper<ExtractionJobRecord>('extraction_jobs', jobColumns);
const insertOwnedJob = withOwner(jobs.insertSql);

const acquisitions = rowMapper<PaperAcquisitionRecord>('paper_acquisitions', {
  id: text,
  sessionId: text,
  projectId: text,
  extractionJobId: text,
  downloadJobId: nullableText,
  pdfPath: text,
  sha256: text,
  title: nullableText,
  authors: stringList,
  doi: nullableText,
  createdAt: text,
});

/** ExtractionJobs and PaperAcquisitions in a SQL database (embedded or PostgreSQL) (migration 005). */
export class ExtractionRepository implements ExtractionStore {
  /** `owner`: this process's replica id, stored with every job it adds (null: one process owns the store). */
  constructor(private readonly db: SqlExecutor, private readonly owner: string | null = null) {}

  async addJob(job: ExtractionJobRecord): Promise<void> {
    await this.db.write(insertOwnedJob, [...jobs.toParams(job), this.owner]);
  }

  async updateJob(id: string, from: readonly ExtractionJobStatus[], update: ExtractionJobUpdate): Promise<boolean> {
    const fields = Object.keys(update) as Array<keyof ExtractionJobUpdate>;
    if (fields.length === 0 || from.length === 0) return false;
    const sets = fields.map((f) => `${snakeCase(f)} = ?`).join(', ');
    const values = fields.map((f) => (jobColumns[f] as Column<unknown>).toSql(update[f]));
    // Conditional on the current status: the changed-row count, not an earlier read, decides.
    const changed = await this.db.write(`UPDATE extraction_jobs SET ${sets} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`, [
      ...values, id, ...from,
    ] as SqlParam[]);
    return changed === 1;
  }

  async getJob(id: string): Promise<ExtractionJobRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM extraction_jobs WHERE id = ?', [id]))[0];
    return row ? jobs.fromRow(row) : undefined;
  }

  async listJobs(sessionId: string): Promise<ExtractionJobRecord[]> {
    return (await this.db.all('SELECT * FROM extraction_jobs WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])).map(jobs.fromRow);
  }

  async findCompleted(sessionId: string, sha256: string): Promise<ExtractionJobRecord | undefined> {
    const row = (await this.db.all(
      "SELECT * FROM extraction_jobs WHERE session_id = ? AND sha256 = ? AND status = 'completed' ORDER BY created_at, rowid LIMIT 1",
      [sessionId, sha256],
    ))[0];
    return row ? jobs.fromRow(row) : undefined;
  }

  failUnfinished(at: string, reason: string, alive?: readonly string[]): Promise<number> {
    const [owners, params] = ownerNotAlive(alive);
    return this.db.write(
      `UPDATE extraction_jobs SET status = 'failed', error_code = ?, error_message = ?, ended_at = ? WHERE status IN ('queued', 'running')${owners}`,
      [INTERRUPTED_ERROR_CODE, reason, at, ...params],
    );
  }

  async addAcquisition(acquisition: PaperAcquisitionRecord): Promise<void> {
    await this.db.write(acquisitions.insertSql, acquisitions.toParams(acquisition));
  }

  async getAcquisition(id: string): Promise<PaperAcquisitionRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM paper_acquisitions WHERE id = ?', [id]))[0];
    return row ? acquisitions.fromRow(row) : undefined;
  }

  async findAcquisitionByJob(extractionJobId: string): Promise<PaperAcquisitionRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM paper_acquisitions WHERE extraction_job_id = ?', [extractionJobId]))[0];
    return row ? acquisitions.fromRow(row) : undefined;
  }

  async listAcquisitions(sessionId: string): Promise<PaperAcquisitionRecord[]> {
    return (await this.db.all('SELECT * FROM paper_acquisitions WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])).map(acquisitions.fromRow);
  }
}
