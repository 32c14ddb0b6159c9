import type { Storage } from '../gateway/core/index.js';
import { ensurePrivateDir } from './dataDir.js';
import { openStorage, type EncryptedStores, type OpenStorageOptions } from './openStorage.js';
import { ENCRYPTED_FILES } from './customServerFileStore.js';
import { openPgSecretStores, openPostgresStorage } from './postgresOnDemand.js';
import { resolveSecretKey } from './secretKey.js';

export interface OpenStoreOptions extends OpenStorageOptions {
  /** A postgres:// URL selects PostgreSQL; absent, the embedded store in the data directory. */
  store?: string;
}

/** Every port plus the encrypted-file secrets: what the commands wire the runtime from. */
export type OpenedStore = Storage & EncryptedStores;

/**
 * Opens the store the command line chose. Custom server configuration and OAuth logins are
 * encrypted under the secrets key either way: in the data directory's encrypted files for the
 * embedded store, in PostgreSQL's rows for PostgreSQL, where every replica must use the same key
 * (`--secret-key-file`, or the same `model-secrets.key`; see README "Scale-out").
 */
export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  if (options.store === undefined) return openStorage(options);
  await ensurePrivateDir(options.dataDir);
  const { key, path } = await resolveSecretKey(
    { dataDir: options.dataDir, ...(options.secretKeyFile !== undefined ? { keyFile: options.secretKeyFile } : {}) },
    ENCRYPTED_FILES,
  );
  const storage = await openPostgresStorage({ url: options.store, log: options.log, ...(options.now ? { now: options.now } : {}) });
  try {
    return { ...storage, ...(await openPgSecretStores(storage.database, key, path)) };
  } catch (error) {
    await storage.close().catch(() => {});
    throw error;
  }
}
