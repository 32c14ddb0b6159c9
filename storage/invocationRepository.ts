import type { InvocationRecord, InvocationStore } from '../gateway/core/index.js';
import { flag, integer, nullableFlag, nullableInteger, nullableText, oneOf, rowMapper, text } from './rowMapper.js';
import type { SqlExecutor } from './sqlExecutor.js';

/** The invocations table's mapping (also used to copy rows read through the port into PostgreSQL). */
export const invocationRows = rowMapper<InvocationRecord>('invocations', {
  id: text,
  sessionId: text,
  projectId: text,
  sourceId: nullableText,
  toolId: nullableText,
  toolName: text,
  origin: oneOf(['agent', 'inspector'], 'agent'),
  status: oneOf(['ok', 'error', 'cancelled'], 'error'),
  errorCode: nullableText,
  retryable: nullableFlag,
  attempts: integer,
  cacheHit: flag,
  queueWaitMs: integer,
  durationMs: integer,
  sizeBytes: nullableInteger,
  casHash: nullableText,
  argumentsHash: nullableText,
  authorizationId: nullableText,
  startedAt: text,
  endedAt: text,
});

/** Invocation audit rows in a SQL database (embedded or PostgreSQL). */
export class InvocationRepository implements InvocationStore {
  constructor(private readonly db: SqlExecutor) {}

  async record(invocation: InvocationRecord): Promise<void> {
    await this.db.write(invocationRows.insertSql, invocationRows.toParams(invocation));
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM invocations WHERE id = ?', [id]))[0];
    return row ? invocationRows.fromRow(row) : undefined;
  }

  async listBySession(sessionId: string, options: { limit?: number } = {}): Promise<InvocationRecord[]> {
    return (await this.db.all('SELECT * FROM invocations WHERE session_id = ? ORDER BY started_at DESC, id LIMIT ?', [sessionId, options.limit ?? 100]))
      .map(invocationRows.fromRow);
  }
}
