import type {
  ArtifactPlanPatch, ArtifactPlanRecord, ArtifactPlanStatus, ArtifactStore, DownloadJobPatch, DownloadJobRecord, DownloadJobState, PlannedCandidate,
} from '../gateway/core/index.js';
import { integer, json, nullableInteger, nullableText, rowMapper, snakeCase, text, textAs, type Column } from './rowMapper.js';
import { ownerNotAlive, withOwner } from './replicaRepository.js';
import type { SqlExecutor, SqlParam } from './sqlExecutor.js';

const plans = rowMapper<ArtifactPlanRecord>('artifact_plans', {
  id: text,
  sessionId: text,
  projectId: text,
  invocationId: text,
  sourceInvocationId: text,
  candidateId: text,
  sourceId: text,
  sourceRecordId: text,
  candidate: json as Column<PlannedCandidate>,
  destinationPath: text,
  status: textAs<ArtifactPlanStatus>(),
  authorizationId: nullableText,
  createdAt: text,
  decidedAt: nullableText,
});

const jobColumns = {
  id: text,
  planId: text,
  sessionId: text,
  projectId: text,
  sourceId: text,
  sourceRecordId: text,
  candidateId: text,
  url: text,
  destinationPath: text,
  mediaType: text,
  license: text,
  state: textAs<DownloadJobState>(),
  bytesDone: integer,
  totalBytes: nullableInteger,
  sha256: nullableText,
  expectedChecksum: nullableText,
  attempts: integer,
  errorCode: nullableText,
  errorMessage: nullableText,
  authorizationId: nullableText,
  createdAt: text,
  updatedAt: text,
  endedAt: nullableText,
} satisfies { [K in keyof DownloadJobRecord]-?: Column<DownloadJobRecord[K]> };
const jobs = rowMapper<DownloadJobRecord>('download_jobs', jobColumns);
const insertOwnedJob = withOwner(jobs.insertSql);

/** Artifact plans and download jobs in a SQL database (embedded or PostgreSQL); every write is durable when it resolves. */
export class ArtifactRepository implements ArtifactStore {
  /** `owner`: this process's replica id, stored with every download job it adds (null: one process owns the store). */
  constructor(private readonly db: SqlExecutor, private readonly owner: string | null = null) {}

  async addPlan(plan: ArtifactPlanRecord): Promise<void> {
    await this.db.write(plans.insertSql, plans.toParams(plan));
  }

  async decidePlan(id: string, patch: ArtifactPlanPatch): Promise<boolean> {
    const changed = await this.db.write('UPDATE artifact_plans SET status = ?, authorization_id = ?, decided_at = ? WHERE id = ?', [
      patch.status, patch.authorizationId, patch.decidedAt, id,
    ]);
    return changed > 0;
  }

  async getPlan(id: string): Promise<ArtifactPlanRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM artifact_plans WHERE id = ?', [id]))[0];
    return row ? plans.fromRow(row) : undefined;
  }

  async listPlans(sessionId: string): Promise<ArtifactPlanRecord[]> {
    return (await this.db.all('SELECT * FROM artifact_plans WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])).map(plans.fromRow);
  }

  async addJob(job: DownloadJobRecord): Promise<void> {
    await this.db.write(insertOwnedJob, [...jobs.toParams(job), this.owner]);
  }

  async updateJob(id: string, patch: DownloadJobPatch): Promise<DownloadJobRecord | undefined> {
    const fields = (Object.keys(patch) as Array<keyof DownloadJobPatch>).filter((f) => patch[f] !== undefined);
    const params: SqlParam[] = fields.map((f) => (jobColumns[f] as Column<unknown>).toSql(patch[f]));
    const changed = await this.db.write(`UPDATE download_jobs SET ${fields.map((f) => `${snakeCase(f)} = ?`).join(', ')} WHERE id = ?`, [...params, id]);
    return changed > 0 ? this.getJob(id) : undefined;
  }

  async getJob(id: string): Promise<DownloadJobRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM download_jobs WHERE id = ?', [id]))[0];
    return row ? jobs.fromRow(row) : undefined;
  }

  async listJobs(sessionId: string): Promise<DownloadJobRecord[]> {
    return (await this.db.all('SELECT * FROM download_jobs WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])).map(jobs.fromRow);
  }

  async listJobsIn(states: readonly DownloadJobState[], alive?: readonly string[]): Promise<DownloadJobRecord[]> {
    if (states.length === 0) return [];
    const [owners, params] = ownerNotAlive(alive);
    const rows = await this.db.all(
      `SELECT * FROM download_jobs WHERE state IN (${states.map(() => '?').join(', ')})${owners} ORDER BY created_at, rowid`, [...states, ...params],
    );
    return rows.map(jobs.fromRow);
  }
}
