import type { SqlValue } from 'sql.js';
import type { InvocationRecord, InvocationStore } from '../gateway/core/index.js';
import type { SqlDatabase } from './sqlDatabase.js';

const COLUMNS = [
  'id', 'session_id', 'project_id', 'source_id', 'tool_id', 'tool_name', 'origin', 'status', 'error_code',
  'retryable', 'attempts', 'cache_hit', 'queue_wait_ms', 'duration_ms', 'size_bytes', 'cas_hash',
  'arguments_hash', 'authorization_id', 'started_at', 'ended_at',
] as const;

/** Invocation audit rows in the embedded database. */
export class InvocationRepository implements InvocationStore {
  constructor(private readonly db: SqlDatabase) {}

  record(i: InvocationRecord): Promise<void> {
    const values = [
      i.id, i.sessionId, i.projectId, i.sourceId, i.toolId, i.toolName, i.origin, i.status, i.errorCode,
      i.retryable === null ? null : Number(i.retryable), i.attempts, Number(i.cacheHit), i.queueWaitMs,
      i.durationMs, i.sizeBytes, i.casHash, i.argumentsHash, i.authorizationId, i.startedAt, i.endedAt,
    ];
    return this.db.write(
      `INSERT INTO invocations (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      values,
    );
  }

  get(id: string): InvocationRecord | undefined {
    const row = this.db.all('SELECT * FROM invocations WHERE id = ?', [id])[0];
    return row ? toInvocation(row) : undefined;
  }

  listBySession(sessionId: string, options: { limit?: number } = {}): InvocationRecord[] {
    return this.db
      .all('SELECT * FROM invocations WHERE session_id = ? ORDER BY started_at DESC, id LIMIT ?', [
        sessionId,
        options.limit ?? 100,
      ])
      .map(toInvocation);
  }
}

function toInvocation(r: Record<string, SqlValue>): InvocationRecord {
  const text = (v: SqlValue | undefined) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    sessionId: String(r.session_id),
    projectId: String(r.project_id),
    sourceId: text(r.source_id),
    toolId: text(r.tool_id),
    toolName: String(r.tool_name),
    origin: r.origin === 'inspector' ? 'inspector' : 'agent',
    status: r.status === 'ok' ? 'ok' : r.status === 'cancelled' ? 'cancelled' : 'error',
    errorCode: text(r.error_code),
    retryable: r.retryable === null ? null : Boolean(r.retryable),
    attempts: Number(r.attempts),
    cacheHit: Boolean(r.cache_hit),
    queueWaitMs: Number(r.queue_wait_ms),
    durationMs: Number(r.duration_ms),
    sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes),
    casHash: text(r.cas_hash),
    argumentsHash: text(r.arguments_hash),
    authorizationId: text(r.authorization_id),
    startedAt: String(r.started_at),
    endedAt: String(r.ended_at),
  };
}
