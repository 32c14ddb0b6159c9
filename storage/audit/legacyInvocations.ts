import type { InvocationRecord, Logger } from '../../gateway/core/index.js';
import { invocationRows } from '../invocationRows.js';
import type { SqlDatabase } from '../sqlDatabase.js';
import type { AuditLog } from './auditLog.js';

/**
 * Moves Invocation rows an older version kept in the embedded database into the audit log (their
 * blobs stay in the file CAS, which the CAS still reads), then empties the table, so a checkpoint
 * no longer carries the history. Rows already in the log (a stop between the two steps) are skipped.
 */
export async function moveLegacyInvocations(db: SqlDatabase, audit: AuditLog, log: Logger): Promise<number> {
  const rows = db.all('SELECT * FROM invocations ORDER BY started_at, id').map(invocationRows.fromRow);
  if (rows.length === 0) return 0;
  const fresh: InvocationRecord[] = [];
  for (const row of rows) if (!(await audit.get(row.id))) fresh.push(row);
  await Promise.all(fresh.map((row) => audit.complete(row, null)));
  await db.write('DELETE FROM invocations');
  await db.checkpoint();
  log.info({ moved: fresh.length }, 'invocation history moved from the database into the audit log');
  return fresh.length;
}
