import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { sha256Hex, type Cas, type InvocationRecord, type Logger, type PermissionAuthorizationRecord, type Storage } from '../../gateway/core/index.js';
import { pathExists } from '../dataDir.js';
import { SHA256_HEX } from '../fileCas.js';
import { invocationRows } from '../invocationRows.js';
import { ENCRYPTED_FILES } from '../customServerFileStore.js';
import { openStorage } from '../openStorage.js';
import { authorizationRows } from '../permissionRepository.js';
import type { RowMapper } from '../rowMapper.js';
import { resolveSecretKey } from '../secretKey.js';
import { openPostgresStorage } from './openPostgresStorage.js';
import { encryptCustomServer } from './pgCustomServerStore.js';
import { encryptOAuthLogin } from './pgOAuthLoginStore.js';
import { BUMP_SECRETS_REVISION, verifySecretKey } from './pgSecretState.js';

export interface CopyEmbeddedStoreOptions {
  /** The data directory whose `scigate.db` (+ journal) and `cas/` are copied. */
  dataDir: string;
  /** The PostgreSQL to copy into (migrated first). */
  url: string;
  log: Logger;
  /** The secrets key file (`--secret-key-file`); absent: the data dir's `model-secrets.key`. Rows are written under the same key. */
  secretKeyFile?: string;
  /** The flag `url` came from, named if PostgreSQL cannot be reached. */
  urlFlag?: string;
}

/** What a copy moved: rows per table and blobs (those already in PostgreSQL count as skipped). */
export interface CopyReport {
  tables: Record<string, { copied: number; skipped: number }>;
  blobs: { copied: number; skipped: number; corrupt: number };
}

/**
 * Bookkeeping tables each engine keeps for itself; the audit and the authorizations (some of which
 * the embedded store keeps in its audit log) are read through their ports instead.
 */
const NOT_COPIED_AS_TABLES = new Set(['schema_migrations', 'meta', invocationRows.table, authorizationRows.table]);
const ROWS_PER_INSERT = 200;
/** More Invocations than any one Session holds: "all of them" for `listBySession`. */
const ALL_ROWS = 2 ** 31 - 1;

type Row = Record<string, unknown>;

/**
 * Copies an embedded data directory into PostgreSQL in one transaction, all or nothing: every table
 * in insertion order, the audit (Invocations, oldest first, and the blobs they name) through the
 * store's own ports so it does not matter where the embedded store keeps them, every CAS file, and
 * the encrypted custom server configuration and OAuth logins (decrypted, and encrypted again per
 * row under the same key; refused before anything is copied when PostgreSQL's rows use another
 * key). Rows and blobs already there (same primary key) are kept, so a copy can be run again after
 * a failure. The gateway on that data dir must be stopped.
 */
export async function copyEmbeddedStore(options: CopyEmbeddedStoreOptions): Promise<CopyReport> {
  const { dataDir, secretKeyFile } = options;
  const embedded = await openStorage({ dataDir, log: options.log, ...(secretKeyFile !== undefined ? { secretKeyFile } : {}) });
  try {
    const { key, path } = await resolveSecretKey({ dataDir, ...(secretKeyFile !== undefined ? { keyFile: secretKeyFile } : {}) }, ENCRYPTED_FILES);
    const target = await openPostgresStorage({ url: options.url, log: options.log, ...(options.urlFlag ? { urlFlag: options.urlFlag } : {}) });
    try {
      await verifySecretKey(target.database, key, path);
      const servers = await embedded.customServerStore.load();
      const logins = await embedded.oauthLogins.load();
      return await target.database.withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const tables: CopyReport['tables'] = {};
          for (const table of tableNames(embedded.database)) tables[table] = await copyTable(client, table, embedded.database.all(`SELECT * FROM ${table} ORDER BY rowid`));
          const audit = await auditOf(embedded);
          tables[invocationRows.table] = await copyTable(client, invocationRows.table, audit.map((row) => columnsOf(invocationRows, row)));
          const authorizations = await authorizationsOf(embedded);
          tables[authorizationRows.table] = await copyTable(client, authorizationRows.table, authorizations.map((a) => columnsOf(authorizationRows, a)));
          const blobs = await copyBlobs(client, join(options.dataDir, 'cas'), options.log);
          await copyNamedBlobs(client, embedded.cas, audit, blobs);
          // The version of every copied row is this revision; the bump tells running replicas to load them.
          const version = String((await client.query(BUMP_SECRETS_REVISION)).rows[0].revision);
          tables.custom_servers = await copyTable(client, 'custom_servers', servers.map((config) => ({ id: config.id, version, ciphertext: encryptCustomServer(key, config) })));
          tables.oauth_logins = await copyTable(
            client,
            'oauth_logins',
            Object.entries(logins).map(([serverId, login]) => ({ server_id: serverId, version, ciphertext: encryptOAuthLogin(key, serverId, login) })),
          );
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

function tableNames(db: { all(sql: string): Row[] }): string[] {
  return db
    .all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .map((r) => String(r.name))
    .filter((name) => !NOT_COPIED_AS_TABLES.has(name));
}

/** Every Session's Invocations, oldest first, as the InvocationStore port reads them. */
async function auditOf(storage: Storage): Promise<InvocationRecord[]> {
  const rows: InvocationRecord[] = [];
  for (const session of (await storage.sessions.list()).reverse()) {
    rows.push(...(await storage.invocations.listBySession(session.id, { limit: ALL_ROWS })).reverse());
  }
  return rows;
}

/** Every Session's authorizations, oldest first, as the PermissionStore port reads them. */
async function authorizationsOf(storage: Storage): Promise<PermissionAuthorizationRecord[]> {
  const found: PermissionAuthorizationRecord[] = [];
  for (const session of (await storage.sessions.list()).reverse()) found.push(...(await storage.permissions.listAuthorizations(session.id)));
  return found;
}

function columnsOf<T>(mapper: RowMapper<T>, record: T): Row {
  const params = mapper.toParams(record);
  return Object.fromEntries(mapper.columns.map((column, i) => [column, params[i]]));
}

async function copyTable(client: pg.PoolClient, table: string, rows: Row[]): Promise<{ copied: number; skipped: number }> {
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
      await insertBlob(client, name, bytes, report);
    }
  }
  return report;
}

/** The arguments and results the audit names that were not among the CAS files (read through the Cas port). */
async function copyNamedBlobs(client: pg.PoolClient, cas: Cas, audit: InvocationRecord[], report: CopyReport['blobs']): Promise<void> {
  const named = new Set(audit.flatMap((row) => [row.argumentsHash, row.casHash]).filter((hash): hash is string => hash !== null));
  for (const hash of named) {
    const present = await client.query('SELECT 1 FROM cas_blobs WHERE hash = $1', [hash]);
    if (present.rowCount) continue;
    const bytes = await cas.get(hash);
    // A damaged blob was counted (and logged) by the walk over the CAS files.
    if (bytes && sha256Hex(bytes) === hash) await insertBlob(client, hash, bytes, report);
  }
}

async function insertBlob(client: pg.PoolClient, hash: string, bytes: Buffer, report: CopyReport['blobs']): Promise<void> {
  const result = await client.query('INSERT INTO cas_blobs (hash, bytes, size_bytes) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING', [hash, bytes, bytes.length]);
  if (result.rowCount) report.copied += 1;
  else report.skipped += 1;
}
