import { join } from 'node:path';
import { GatewayError } from '../gateway/core/index.js';
import { listSegments } from './audit/segmentFiles.js';

/** What to do about a database that cannot be used, said the same way by every refusal. */
const WHAT_TO_DO = 'restore the data directory from a backup, or move it aside and start again to begin afresh';

/**
 * Refuses to begin an empty database where one was lost: a missing or empty `scigate.db` beside
 * journal lines not yet checkpointed, or beside an audit log (which is only made after the first
 * checkpoint), is not a first start. Beginning afresh would drop the sessions, projects and
 * grants, orphan the audit history, and write the new checkpoint over what was left.
 */
export async function refuseLostDatabase(dataDir: string, dbPath: string, file: Uint8Array | undefined, journalLines: number): Promise<void> {
  if (file !== undefined && file.length > 0) return;
  const segments = await listSegments(join(dataDir, 'audit')).catch(() => []);
  const history = [...(journalLines > 0 ? [`${journalLines} journal line${journalLines === 1 ? '' : 's'}`] : []), ...(segments.length > 0 ? ['an audit log (audit/)'] : [])];
  if (history.length === 0) return;
  throw new GatewayError(
    'storage_unavailable',
    `${dbPath} is ${file === undefined ? 'missing' : 'empty'}, but the data directory has history (${history.join(', ')}): the database was lost, and scigate does not start an empty one over it. ${WHAT_TO_DO[0]!.toUpperCase()}${WHAT_TO_DO.slice(1)}.`,
  );
}

/** A database file (or a journal line replayed onto it) sql.js refuses, named, with what to do. */
export function unreadableDatabase(dbPath: string, error: unknown, journalSeq?: number): GatewayError {
  const where = journalSeq === undefined ? dbPath : `The line numbered ${journalSeq} of ${dbPath}.journal`;
  return new GatewayError('storage_unavailable', `${where} could not be read (${(error as Error).message}); ${WHAT_TO_DO}.`, { cause: error });
}
