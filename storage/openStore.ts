import type { Storage } from '../gateway/core/index.js';
import { ensurePrivateDir } from './dataDir.js';
import { openEncryptedStores, openStorage, type EncryptedStores, type OpenStorageOptions } from './openStorage.js';
import { openPostgresStorage } from './postgres/index.js';

export interface OpenStoreOptions extends OpenStorageOptions {
  /** A postgres:// URL selects PostgreSQL; absent, the embedded store in the data directory. */
  store?: string;
}

/** Every port plus the encrypted-file secrets: what the commands wire the runtime from. */
export type OpenedStore = Storage & EncryptedStores;

/**
 * Opens the store the command line chose. Custom server configuration and OAuth logins stay in
 * their encrypted files in the data directory under `model-secrets.key` either way (replicas share
 * that key file; see README "Several replicas").
 */
export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  if (options.store === undefined) return openStorage(options);
  await ensurePrivateDir(options.dataDir);
  const encrypted = await openEncryptedStores(options.dataDir);
  const storage = await openPostgresStorage({ url: options.store, log: options.log, ...(options.now ? { now: options.now } : {}) });
  return { ...storage, ...encrypted };
}
