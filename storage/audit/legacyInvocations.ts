import { interruptedInvocation, type InvocationRecord, type Logger } from '../../gateway/core/index.js';
import { invocationRows } from '../invocationRows.js';
import type { SqlDatabase } from '../sqlDatabase.js';
import type { AuditLog } from './auditLog.js';

/**
 * The status an older version stored for a call in flight (its intent), until the completion
 * replaced the row: one still there was cut off by a crash of that version.
 */
const RUNNING = 'running';

/**
 * Moves Invocation rows an older version kept in the embedded database into the audit log (their
 * blobs stay in the file CAS, which the CAS still reads), then empties the table, so a checkpoint
 * no longer carries the history. A row still `running` becomes `interrupted` at `now` (the start-up
 * time), as the older version's own start-up would have made it. Rows already in the log (a stop
 * between the two steps) are skipped.
 */
export async function moveLegacyInvocations(db: SqlDatabase, audit: AuditLog, log: Logger, now = () => new Date()): Promise<number> {
  const at = now().toISOString();
  const rows = db
    .all('SELECT * FROM invocations ORDER BY started_at, id')
    .map((row) => (row.status === RUNNING ? interruptedInvocation(invocationRows.fromRow({ ...row, status: 'interrupted' }), at) : invocationRows.fromRow(row)));
  if (rows.length === 0) return 0;
  const fresh: InvocationRecord[] = [];
  for (const row of rows) if (!(await audit.get(row.id))) fresh.push(row);
  await Promise.all(fresh.map((row) => audit.complete(row, null)));
  await db.write('DELETE FROM invocations');
  await db.checkpoint();
  log.info({ moved: fresh.length }, 'invocation history moved from the database into the audit log');
  return fresh.length;
}
