import {
  interruptedInvocation, type Cas, type InvocationCursor, type InvocationIntent, type InvocationRecord, type InvocationStore,
} from '../gateway/core/index.js';
import { flag, integer, nullableFlag, nullableInteger, nullableText, oneOf, rowMapper, text } from './rowMapper.js';
import type { SqlDatabase } from './sqlDatabase.js';

const invocations = rowMapper<InvocationRecord>('invocations', {
  id: text,
  sessionId: text,
  projectId: text,
  sourceId: nullableText,
  toolId: nullableText,
  toolName: text,
  origin: oneOf(['agent', 'inspector'], 'agent'),
  status: oneOf(['ok', 'error', 'cancelled', 'interrupted'], 'error'),
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

/** An intent is stored as a row with this status until its completion replaces it; reads skip it. */
const RUNNING = 'running';

/** Invocation audit rows in the embedded database, blobs in the CAS. */
export class InvocationRepository implements InvocationStore {
  constructor(private readonly db: SqlDatabase, private readonly cas: Cas) {}

  async begin(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void> {
    const row = interruptedInvocation(intent, intent.startedAt);
    // Started first: the row is in memory at once, so a completion that follows finds it.
    const inserted = this.db.write(invocations.insertSql, invocations.toParams(row).map((v, i) => (i === statusColumn ? RUNNING : v)));
    await Promise.all([inserted, this.cas.put(argumentsBytes)]);
  }

  async complete(invocation: InvocationRecord, resultBytes: Uint8Array | null): Promise<void> {
    const existing = this.db.all('SELECT status FROM invocations WHERE id = ?', [invocation.id])[0];
    if (existing && existing.status !== RUNNING) throw new Error(`invocations: a row with id ${invocation.id} already exists`);
    const params = invocations.toParams(invocation);
    const written = existing
      ? this.db.write(`UPDATE invocations SET ${updateColumns} WHERE id = ? AND status = '${RUNNING}'`, [...params, invocation.id])
      : this.db.write(invocations.insertSql, params);
    await Promise.all([written, resultBytes && this.cas.put(resultBytes)]);
  }

  async interruptUnfinished(at: string): Promise<number> {
    const open = this.db.all('SELECT * FROM invocations WHERE status = ?', [RUNNING]).map((row) => invocations.fromRow({ ...row, status: 'ok' }));
    for (const intent of open) {
      await this.db.write(`UPDATE invocations SET ${updateColumns} WHERE id = ?`, [...invocations.toParams(interruptedInvocation(intent, at)), intent.id]);
    }
    return open.length;
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const row = this.db.all('SELECT * FROM invocations WHERE id = ? AND status != ?', [id, RUNNING])[0];
    return row ? invocations.fromRow(row) : undefined;
  }

  async listBySession(sessionId: string, options: { limit?: number; before?: InvocationCursor } = {}): Promise<InvocationRecord[]> {
    const { before } = options;
    const after = before ? 'AND (started_at < ? OR (started_at = ? AND id > ?))' : '';
    return this.db
      .all(`SELECT * FROM invocations WHERE session_id = ? AND status != ? ${after} ORDER BY started_at DESC, id LIMIT ?`, [
        sessionId, RUNNING, ...(before ? [before.startedAt, before.startedAt, before.id] : []), options.limit ?? 100,
      ])
      .map(invocations.fromRow);
  }
}

/** Every column, in `toParams` order, as `column = ?` for an UPDATE of the whole row. */
const columnNames = /\(([^)]*)\)/.exec(invocations.insertSql)![1]!.split(', ');
const updateColumns = columnNames.map((c) => `${c} = ?`).join(', ');
const statusColumn = columnNames.indexOf('status');
