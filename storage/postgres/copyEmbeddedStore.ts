import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { sha256Hex, type Logger } from '../../gateway/core/index.js';
import { pathExists } from '../dataDir.js';
import { SHA256_HEX } from '../fileCas.js';
import { openStorage } from '../openStorage.js';
import { openPostgresStorage } from './openPostgresStorage.js';

export interface CopyEmbeddedStoreOptions {
  /** The data directory whose `scigate.db` (+ journal) and `cas/` are copied. */
  dataDir: string;
  /** The PostgreSQL to copy into (migrated first). */
  url: string;
  log: Logger;
}

/** What a copy moved: rows per table and blobs (those already in PostgreSQL count as skipped). */
export interface CopyReport {
  tables: Record<string, { copied: number; skipped: number }>;
  blobs: { copied: number; skipped: number; corrupt: number };
}

/** Bookkeeping tables each engine keeps for itself. */
const OWN_TABLES = new Set(['schema_migrations', 'meta']);
const ROWS_PER_INSERT = 200;

/**
 * Copies an embedded data directory (every table, in insertion order, and every CAS blob) into
 * PostgreSQL in one transaction: all or nothing. Rows and blobs already there (same primary key)
 * are kept, so a copy can be run again after a failure. The gateway on that data dir must be stopped.
 */
export async function copyEmbeddedStore(options: CopyEmbeddedStoreOptions): Promise<CopyReport> {
  const embedded = await openStorage({ dataDir: options.dataDir, log: options.log });
  try {
    const target = await openPostgresStorage({ url: options.url, log: options.log });
    try {
      return await target.database.withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const tables: CopyReport['tables'] = {};
          for (const table of tableNames(embedded.database)) tables[table] = await copyTable(client, table, embedded.database.all(`SELECT * FROM ${table} ORDER BY rowid`));
          const blobs = await copyBlobs(client, join(options.dataDir, 'cas'), options.log);
          await client.query('COMMIT');
          return { tables, blobs };
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      });
    } finally {
      await target.close();
    }
  } finally {
    await embedded.close();
  }
}

function tableNames(db: { all(sql: string): Array<Record<string, unknown>> }): string[] {
  return db
    .all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((r) => String(r.name))
    .filter((name) => !OWN_TABLES.has(name));
}

async function copyTable(client: pg.PoolClient, table: string, rows: Array<Record<string, unknown>>): Promise<{ copied: number; skipped: number }> {
  let copied = 0;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const batch = rows.slice(start, start + ROWS_PER_INSERT);
    const columns = Object.keys(batch[0]!);
    const values = batch.map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
    const params = batch.flatMap((row) => columns.map((c) => row[c]));
    const result = await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')} ON CONFLICT DO NOTHING`, params);
    copied += result.rowCount ?? 0;
  }
  return { copied, skipped: rows.length - copied };
}

/** Every `cas/sha256/ab/<hash>` file whose bytes still hash to its name; a damaged one is logged and left out. */
async function copyBlobs(client: pg.PoolClient, casRoot: string, log: Logger): Promise<CopyReport['blobs']> {
  const report = { copied: 0, skipped: 0, corrupt: 0 };
  const root = join(casRoot, 'sha256');
  if (!(await pathExists(root))) return report;
  for (const fan of (await readdir(root)).sort()) {
    for (const name of (await readdir(join(root, fan))).sort()) {
      if (!SHA256_HEX.test(name)) continue;
      const bytes = await readFile(join(root, fan, name));
      if (sha256Hex(bytes) !== name) {
        report.corrupt += 1;
        log.warn({ hash: name }, 'CAS blob does not match its hash; not copied');
        continue;
      }
      const result = await client.query('INSERT INTO cas_blobs (hash, bytes, size_bytes) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING', [name, bytes, bytes.length]);
      if (result.rowCount) report.copied += 1;
      else report.skipped += 1;
    }
  }
  return report;
}
