/** `--store` (SCIGATE_STORE): which store the commands open, and opening it with its password kept out of logs. */
import { resolve } from 'node:path';
import { isPostgresUrl, openStore, postgresPassword, postgresUrlProblem, redactPostgresUrl, type OpenedStore } from '../../storage/index.js';
import { UsageError, type FlagValues, type Logger, type SecretScrubber } from '../index.js';

/** The PostgreSQL URL `--store` names, or undefined for the embedded store; a usage error says what is wrong. */
export function storeFlag(flags: FlagValues): string | undefined {
  const value = String(flags.store ?? 'embedded');
  return value === 'embedded' ? undefined : checkedPostgresUrl(value, '--store (SCIGATE_STORE)', '"embedded" or ');
}

/** `value` when it is a usable postgres:// URL; otherwise a usage error naming `flag`, the password redacted. */
export function checkedPostgresUrl(value: string, flag: string, alternatives = ''): string {
  const problem = isPostgresUrl(value) || value.includes('://') ? postgresUrlProblem(value) : 'it is not a postgres:// URL';
  if (problem === undefined) return value;
  throw new UsageError(`${flag} must be ${alternatives}postgres://user:password@host:5432/database; ${redactPostgresUrl(value)} is not usable: ${problem}.`);
}

/** `--secret-key-file` (SCIGATE_SECRET_KEY_FILE) as an absolute path; absent: the data dir's `model-secrets.key`. */
export function secretKeyFileFlag(flags: FlagValues): { secretKeyFile?: string } {
  return typeof flags.secretKeyFile === 'string' && flags.secretKeyFile !== '' ? { secretKeyFile: resolve(flags.secretKeyFile) } : {};
}

export interface ConfiguredStoreOptions {
  /** From `storeFlag`: a postgres:// URL, or undefined for the embedded store. */
  store: string | undefined;
  dataDir: string;
  log: Logger;
  /** The store's password joins the scrubbed secrets before anything can log it. */
  secrets: SecretScrubber;
  onJournalFsync?: (ms: number) => void;
  /** The embedded audit log's retention (`--audit-retention-days`). */
  auditRetentionDays?: number;
  /** From `secretKeyFileFlag`. */
  secretKeyFile?: string;
}

/** Makes the logger scrub the URL's password (a driver or error message might carry it). */
export function scrubStorePassword(secrets: SecretScrubber, url: string | undefined): void {
  const password = url ? postgresPassword(url) : undefined;
  if (password) secrets.register('store-password', () => [password]);
}

/** Opens the chosen store (see storage/openStore.ts). */
export function openConfiguredStore(options: ConfiguredStoreOptions): Promise<OpenedStore> {
  scrubStorePassword(options.secrets, options.store);
  return openStore({
    dataDir: options.dataDir,
    log: options.log,
    ...(options.store ? { store: options.store } : {}),
    ...(options.onJournalFsync ? { onJournalFsync: options.onJournalFsync } : {}),
    ...(options.auditRetentionDays !== undefined ? { auditRetentionDays: options.auditRetentionDays } : {}),
    ...(options.secretKeyFile !== undefined ? { secretKeyFile: options.secretKeyFile } : {}),
  });
}
