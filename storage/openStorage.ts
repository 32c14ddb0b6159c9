import { join } from 'node:path';
import { AuditCas } from './audit/auditCas.js';
import { AuditLog } from './audit/auditLog.js';
import { AuditedPermissionRepository } from './audit/auditedPermissions.js';
import { moveLegacyInvocations } from './audit/legacyInvocations.js';
import type { CustomServerStore, Logger, OAuthLoginStore, Storage } from '../gateway/core/index.js';
import { removeLeftoverTemps } from './atomicWrite.js';
import { CUSTOM_SERVERS_FILE, CustomServerFileStore, OAUTH_LOGINS_FILE } from './customServerFileStore.js';
import { ensurePrivateDir } from './dataDir.js';
import { lockDataDir } from './dataDirLock.js';
import { FileCas } from './fileCas.js';
import { OAuthLoginFileStore } from './oauthLoginFileStore.js';
import { SECRET_KEY_FILE } from './secretKey.js';
import { SqlDatabase } from './sqlDatabase.js';
import { sqlRepositories } from './sqlRepositories.js';

/** The secrets that stay in encrypted files of the data directory, whichever store holds the rest. */
export interface EncryptedStores {
  customServerStore: CustomServerStore;
  oauthLogins: OAuthLoginStore;
}

/** Opens `custom-mcp-servers.enc` and `mcp-oauth.enc` under the data directory's `model-secrets.key` (or `keyFile`). */
export async function openEncryptedStores(dataDir: string, keyFile?: string): Promise<{ customServerStore: CustomServerFileStore; oauthLogins: OAuthLoginFileStore }> {
  const customServerStore = await CustomServerFileStore.open(dataDir, keyFile);
  const oauthLogins = await OAuthLoginFileStore.open(dataDir, customServerStore.key, customServerStore.keyPath);
  return { customServerStore, oauthLogins };
}

export interface OpenStorageOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  checkpointEvery?: number;
  /** Told how long each journal fsync took, in ms (metrics; the audit log's fsyncs too). */
  onJournalFsync?: (ms: number) => void;
  /** Audit segments whose newest call ended longer ago are deleted (default: kept). */
  auditRetentionDays?: number;
  /** Calls per audit segment (default 4096; tests make it small to see segments seal). */
  auditSegmentRows?: number;
  /** The secrets key file every replica shares (`--secret-key-file`); absent: `<dataDir>/model-secrets.key`. */
  secretKeyFile?: string;
}

type EmbeddedStorage = Storage & EncryptedStores & { database: SqlDatabase; audit: AuditLog };

/**
 * Opens the embedded store in `dataDir` (created 0700): database + journal for what the gateway
 * decides with, the audit log (`audit/`) for the invocation history and its blobs, and the CAS.
 * One process holds it at a time (`scigate.lock`, see dataDirLock.ts); `close` lets go of it.
 */
export async function openStorage(options: OpenStorageOptions): Promise<EmbeddedStorage> {
  await ensurePrivateDir(options.dataDir);
  const lock = await lockDataDir(options.dataDir, { onWait: (message) => options.log.warn({ dataDir: options.dataDir }, message) });
  try {
    const storage = await openLocked(options);
    return { ...storage, close: () => storage.close().finally(() => lock.release()) };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function openLocked(options: OpenStorageOptions): Promise<EmbeddedStorage> {
  await removeTempsLeftBehind(options);
  // Opened first: a missing or wrong model-secrets.key stops start-up before anything else.
  const { customServerStore, oauthLogins } = await openEncryptedStores(options.dataDir, options.secretKeyFile);
  const database = await SqlDatabase.open(options);
  const audit = await AuditLog.open({
    dir: join(options.dataDir, 'audit'),
    log: options.log,
    ...(options.now ? { now: options.now } : {}),
    ...(options.onJournalFsync ? { onFsync: options.onJournalFsync } : {}),
    ...(options.auditRetentionDays !== undefined ? { retentionDays: options.auditRetentionDays } : {}),
    ...(options.auditSegmentRows !== undefined ? { segmentRows: options.auditSegmentRows } : {}),
  }).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  await moveLegacyInvocations(database, audit, options.log, options.now);
  const cas = new AuditCas(audit, new FileCas(join(options.dataDir, 'cas')));
  return {
    database,
    audit,
    ...sqlRepositories(database),
    permissions: new AuditedPermissionRepository(database, audit),
    invocations: audit,
    cas,
    customServerStore,
    oauthLogins,
    close: async () => {
      try {
        // Saves still queued land before the stop resolves; none start after it.
        await Promise.all([customServerStore.close(), oauthLogins.close()]);
        await audit.close();
      } finally {
        await database.close();
      }
    },
  };
}

/**
 * The data directory's files only the lock holder writes; not the admin token, which
 * `scigate token --rotate` may be replacing beside a running gateway.
 */
const isStoreFile = (name: string) => [SECRET_KEY_FILE, CUSTOM_SERVERS_FILE, OAUTH_LOGINS_FILE, 'scigate.db'].includes(name) || name.startsWith('scigate.db.journal.');

/**
 * Removes the temp files of saves a kill -9 cut short (a checkpoint's copy of the whole database,
 * an audit index, an encrypted file), before anything is opened, and names them in a warning.
 */
async function removeTempsLeftBehind({ dataDir, log }: OpenStorageOptions): Promise<void> {
  const removed = [...(await removeLeftoverTemps(dataDir, isStoreFile)), ...(await removeLeftoverTemps(join(dataDir, 'audit'), () => true))];
  if (removed.length > 0) log.warn({ removed }, 'removed the temporary files of saves a stop cut short (never renamed into place, so never in use)');
}
