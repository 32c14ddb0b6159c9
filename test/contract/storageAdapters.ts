import { afterEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Storage } from '../../gateway/core/index.js';
import { openMemoryStorage, openStorage } from '../../storage/index.js';

/** An opened store under test; `reopen` closes it and opens the same data again (a restart). */
export interface OpenedStorage {
  storage: Storage;
  reopen(): Promise<OpenedStorage>;
}

/** One implementation of the storage ports: every contract suite runs against each. */
export interface StorageAdapter {
  name: string;
  /** Opens an empty store; `cleanup` registers what must be released after the test. */
  open(cleanup: (release: () => Promise<void>) => void): Promise<OpenedStorage>;
}

async function openSql(dataDir: string, cleanup: (release: () => Promise<void>) => void): Promise<OpenedStorage> {
  const storage = await openStorage({ dataDir, log: silentLogger });
  let closed = false;
  const close = async () => {
    if (!closed) await storage.close();
    closed = true;
  };
  cleanup(close);
  return {
    storage,
    reopen: async () => {
      await close();
      return openSql(dataDir, cleanup);
    },
  };
}

function memory(storage: Storage): OpenedStorage {
  // Memory holds no files: a "restart" keeps the same process state.
  return { storage, reopen: async () => memory(storage) };
}

/** Every adapter of the storage ports. A new adapter (PostgreSQL) joins every contract suite with one line here. */
export const storageAdapters: StorageAdapter[] = [
  {
    name: 'sql.js + journal',
    open: async (cleanup) => {
      const dir = await mkdtemp(join(tmpdir(), 'scigate-contract-'));
      cleanup(() => rm(dir, { recursive: true, force: true }));
      return openSql(dir, cleanup);
    },
  },
  { name: 'memory', open: async () => memory(openMemoryStorage()) },
];

/** Inside a `describe`: opens a fresh store of `adapter` per call and releases all of them after each test. */
export function useStorage(adapter: StorageAdapter): () => Promise<OpenedStorage> {
  let releases: Array<() => Promise<void>> = [];
  afterEach(async () => {
    // Closed before the directory is removed: released in reverse order of registration.
    for (const release of releases.reverse()) await release();
    releases = [];
  });
  return () => adapter.open((release) => releases.push(release));
}
