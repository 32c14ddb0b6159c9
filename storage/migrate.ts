import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from 'sql.js';
import { GatewayError } from '../gateway/core/index.js';

/** Where the numbered `NNN_name.sql` files live (copied beside the compiled code by the build). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The numbered `NNN_name.sql` files of `dir` in order (a sub-folder, like `postgres/`, is not one). */
export async function migrationFiles(dir: string): Promise<Array<{ file: string; version: number; path: string }>> {
  const files = (await readdir(dir)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return files.map((file) => ({ file, version: Number(file.slice(0, 3)), path: join(dir, file) }));
}

/** Creates the bookkeeping tables every database has, before journal replay and migrations. */
export function bootstrapSchema(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
}

/**
 * Applies every migration newer than the database, in order, each in its own transaction; returns their names.
 * A database a newer scigate migrated past the last migration known here (a rollback) is refused
 * (`what` names it in the message): this version would run on a schema it does not know, and what
 * it wrote there the newer one might never read.
 */
export async function migrate(db: Database, now: () => Date, dir = MIGRATIONS_DIR, what = 'The database'): Promise<string[]> {
  const applied = new Set(db.exec('SELECT version FROM schema_migrations')[0]?.values.map((v) => Number(v[0])) ?? []);
  const files = await migrationFiles(dir);
  const known = Math.max(0, ...files.map((f) => f.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new GatewayError(
      'storage_unavailable',
      `${what} was written by a newer scigate (schema version ${newest}; this one knows up to ${known}). Run that version again, or restore a backup made by this one.`,
    );
  }
  const ran: string[] = [];
  for (const { file, version, path } of files) {
    if (applied.has(version)) continue;
    const sql = await readFile(path, 'utf8');
    db.run('BEGIN');
    try {
      db.run(sql);
      db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        version,
        file,
        now().toISOString(),
      ]);
      db.run('COMMIT');
    } catch (error) {
      db.run('ROLLBACK');
      throw new Error(`Migration ${file} failed: ${(error as Error).message}`);
    }
    ran.push(file);
  }
  return ran;
}
