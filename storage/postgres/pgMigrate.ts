import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { migrationFiles } from '../migrate.js';
import type { PgDatabase } from './pgDatabase.js';

/** The PostgreSQL twins of the numbered migrations (copied beside the compiled code with the others). */
export const PG_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/postgres/', import.meta.url));

/** scigate's advisory lock id ("scigate" in ASCII, folded into a bigint): held while migrations run. */
export const MIGRATION_LOCK_ID = 0x73636967617465n.toString();

/**
 * Applies every migration the database lacks, in order, each in its own transaction, while holding a
 * session advisory lock: of two replicas starting together one migrates, the other waits and then
 * finds nothing left to do. Returns the files it ran.
 */
export async function migratePostgres(db: PgDatabase, now: () => Date, dir = PG_MIGRATIONS_DIR): Promise<string[]> {
  return db.withClient(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      const applied = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((r: { version: number }) => Number(r.version)));
      const ran: string[] = [];
      for (const { file, version, path } of await migrationFiles(dir)) {
        if (applied.has(version)) continue;
        const sql = await readFile(path, 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [version, file, now().toISOString()]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`PostgreSQL migration ${file} failed: ${(error as Error).message}`, { cause: error });
        }
        ran.push(file);
      }
      return ran;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    }
  });
}
