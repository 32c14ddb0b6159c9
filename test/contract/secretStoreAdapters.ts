import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type CustomServerStore, type OAuthLoginStore } from '../../gateway/core/index.js';
import { openPostgresStorage } from '../../storage/index.js';
import { openEncryptedStores } from '../../storage/openStorage.js';
import { openPgSecretStores } from '../../storage/postgres/index.js';
import { perTest } from './perTest.js';
import { postgresPerSuite } from './storageAdapters.js';

export interface SecretStores {
  customServerStore: CustomServerStore;
  oauthLogins: OAuthLoginStore;
}

/** One place the secrets are kept (a data directory, a PostgreSQL schema), opened as often as a test likes. */
export interface SecretPlace {
  /** Opens the stores on this place under `key` (default: the place's own key); each open is a process (a restart, or a replica). */
  open(key?: Buffer): Promise<SecretStores>;
}

/** One implementation of the CustomServerStore and OAuthLoginStore ports. */
export interface SecretStoreAdapter {
  name: string;
  /** Several processes may open one place at once (replicas); the file stores belong to one process. */
  shared: boolean;
  create(cleanup: (release: () => Promise<void>) => void): Promise<SecretPlace>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** Writes `key` to a key file of its own in `dir`, as --secret-key-file names it. */
async function keyFileIn(dir: string, key: Buffer): Promise<string> {
  const path = join(dir, `key-${randomBytes(4).toString('hex')}`);
  await writeFile(path, key, { mode: 0o600 });
  return path;
}

async function tempDir(cleanup: (release: () => Promise<void>) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-secrets-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function postgresAdapter(): SecretStoreAdapter {
  const postgres = postgresPerSuite();
  return {
    name: 'postgres',
    shared: true,
    start: postgres.start,
    stop: postgres.stop,
    create: async (cleanup) => {
      const url = await postgres.freshSchema();
      const dir = await tempDir(cleanup);
      const ownKey = randomBytes(32);
      return {
        open: async (key = ownKey) => {
          const storage = await openPostgresStorage({ url, log: silentLogger, poolSize: 2 });
          cleanup(() => storage.close());
          return openPgSecretStores(storage.database, key, await keyFileIn(dir, key));
        },
      };
    },
  };
}

/** Every adapter: a new one joins both contract suites with one line here. */
export const secretStoreAdapters: SecretStoreAdapter[] = [
  {
    name: 'encrypted files',
    shared: false,
    create: async (cleanup) => {
      const dir = await tempDir(cleanup);
      const keys = await tempDir(cleanup);
      const ownKey = randomBytes(32);
      return { open: async (key = ownKey) => openEncryptedStores(dir, await keyFileIn(keys, key)) };
    },
  },
  postgresAdapter(),
];

/** Inside a `describe`: a fresh place of `adapter` per call, everything opened released after each test. */
export function useSecretPlace(adapter: SecretStoreAdapter): () => Promise<SecretPlace> {
  return perTest(adapter, (cleanup) => adapter.create(cleanup));
}
