import type { Cas, InvocationCursor, InvocationIntent, InvocationRecord, InvocationStore } from '../../gateway/core/index.js';
import { invocationRows } from '../invocationRows.js';
import { ownerNotAlive } from '../replicaRepository.js';
import type { PgDatabase } from './pgDatabase.js';

/** The status of a row that holds only an intent: never read back (reads skip it) until its call ends. */
const RUNNING = 'running';

const COLUMNS = invocationRows.columns;
const INTENT_SQL = `INSERT INTO invocations (${COLUMNS.join(', ')}, replica_id) VALUES (${COLUMNS.map(() => '?').join(', ')}, ?)`;
/** The completion: a new row when `begin` was refused, else it replaces the intent's row; a finished row is never replaced. */
const COMPLETE_SQL = `${invocationRows.insertSql} ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = EXCLUDED.${c}`).join(', ')} WHERE invocations.status = '${RUNNING}'`;

/**
 * The audit on PostgreSQL. `begin` inserts the Invocation's row with status `running` (its arguments
 * blob first), `complete` turns it into the finished row (result blob first), and reads skip running
 * rows, so a row is visible from its completion on, as the port says. Each statement is one durable
 * commit; PostgreSQL's own group commit shares the WAL flush among concurrent calls.
 */
export class PgInvocationStore implements InvocationStore {
  /** `begin`s still in flight in this process: a `complete` of the same id waits for its intent. */
  private readonly beginning = new Map<string, Promise<void>>();
  /**
   * Completions being written: readable at once (the agent may pass the id to artifact_download
   * before the row is committed), as the port promises.
   */
  private readonly completing = new Map<string, InvocationRecord>();

  constructor(
    private readonly db: PgDatabase,
    private readonly cas: Cas,
    /** This process's replica id, kept on its running rows so another replica's start-up leaves them alone. */
    private readonly replicaId: string,
  ) {}

  begin(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void> {
    const written = this.writeIntent(intent, argumentsBytes);
    const settled = written.catch(() => {});
    this.beginning.set(intent.id, settled);
    void settled.then(() => {
      if (this.beginning.get(intent.id) === settled) this.beginning.delete(intent.id);
    });
    return written;
  }

  async complete(invocation: InvocationRecord, resultBytes: Uint8Array | null): Promise<void> {
    if (this.completing.has(invocation.id)) throw endedTwice(invocation.id);
    this.completing.set(invocation.id, invocation);
    try {
      await this.beginning.get(invocation.id);
      if (resultBytes) await this.cas.put(resultBytes);
      const changed = await this.db.write(COMPLETE_SQL, invocationRows.toParams(invocation));
      if (changed === 0) throw endedTwice(invocation.id);
    } finally {
      this.completing.delete(invocation.id);
    }
  }

  async interruptUnfinished(at: string, alive?: readonly string[]): Promise<number> {
    const durationMs = `GREATEST(0, ROUND(EXTRACT(EPOCH FROM (?::timestamptz - started_at::timestamptz)) * 1000))`;
    const [owners, params] = ownerNotAlive(alive);
    return this.db.write(
      `UPDATE invocations SET status = 'interrupted', error_code = 'interrupted', ended_at = ?, duration_ms = ${durationMs} WHERE status = '${RUNNING}'${owners}`,
      [at, at, ...params],
    );
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const completing = this.completing.get(id);
    if (completing) return completing;
    const row = (await this.db.all(`SELECT * FROM invocations WHERE id = ? AND status <> '${RUNNING}'`, [id]))[0];
    return row ? invocationRows.fromRow(row) : undefined;
  }

  async listBySession(sessionId: string, options: { limit?: number; before?: InvocationCursor } = {}): Promise<InvocationRecord[]> {
    const { before } = options;
    const page = before ? ' AND (started_at < ? OR (started_at = ? AND id > ?))' : '';
    const params = [sessionId, ...(before ? [before.startedAt, before.startedAt, before.id] : []), options.limit ?? 100];
    const rows = await this.db.all(`SELECT * FROM invocations WHERE session_id = ? AND status <> '${RUNNING}'${page} ORDER BY started_at DESC, id LIMIT ?`, params);
    return rows.map(invocationRows.fromRow);
  }

  private async writeIntent(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void> {
    await this.cas.put(argumentsBytes);
    // The intent is the row as far as it is known, with its owner; the primary key refuses an id used before.
    const row = invocationRows.toParams({
      ...intent, sourceId: null, toolId: null, status: RUNNING as InvocationRecord['status'], errorCode: null, retryable: null, attempts: 0, cacheHit: false,
      queueWaitMs: 0, durationMs: 0, sizeBytes: null, casHash: null, authorizationId: null, endedAt: intent.startedAt,
    });
    await this.db.write(INTENT_SQL, [...row, this.replicaId]);
  }
}

function endedTwice(id: string): Error {
  return new Error(`Invocation ${id} already has its row; an Invocation ends once.`);
}
