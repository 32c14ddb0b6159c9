import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Storage } from '../../gateway/core/index.js';
import { openMemoryStorage, openPostgresStorage, openStorage } from '../../storage/index.js';
import type { PostgresServer } from '../fixtures/postgres.js';
import { sharedPostgres } from '../fixtures/sharedPostgres.js';
import { perTest } from './perTest.js';

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
  /** Starts what the adapter needs before a suite's first test (a database server), and stops it after its last. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** Opens `open()` once and registers its close; `reopen` closes it and opens the same data again (a restart). */
async function restartable(open: () => Promise<Storage>, cleanup: (release: () => Promise<void>) => void): Promise<OpenedStorage> {
  const storage = await open();
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
      return restartable(open, cleanup);
    },
  };
}

async function openSql(dataDir: string, cleanup: (release: () => Promise<void>) => void): Promise<OpenedStorage> {
  return restartable(() => openStorage({ dataDir, log: silentLogger }), cleanup);
}

function memory(storage: Storage): OpenedStorage {
  // Memory holds no files: a "restart" keeps the same process state.
  return { storage, reopen: async () => memory(storage) };
}

/**
 * One database on the run's shared PostgreSQL server per suite that uses it (created before its
 * first test, dropped after its last), and a fresh schema per opened store, so every test starts empty.
 */
export function postgresPerSuite(): { start(): Promise<void>; stop(): Promise<void>; freshSchema(): Promise<string> } {
  let server: Promise<PostgresServer> | undefined;
  let suites = 0;
  return {
    start: async () => {
      suites += 1;
      server ??= sharedPostgres();
      await server;
    },
    stop: async () => {
      suites -= 1;
      const running = server;
      if (suites > 0 || !running) return;
      server = undefined;
      await (await running).stop();
    },
    freshSchema: async () => (await server!).freshSchema(),
  };
}

function postgresAdapter(): StorageAdapter {
  const postgres = postgresPerSuite();
  return {
    name: 'postgres',
    start: postgres.start,
    stop: postgres.stop,
    open: async (cleanup) => {
      const url = await postgres.freshSchema();
      return restartable(() => openPostgresStorage({ url, log: silentLogger }), cleanup);
    },
  };
}

/** Every adapter of the storage ports. A new adapter joins every contract suite with one line here. */
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
  postgresAdapter(),
];

/** Inside a `describe`: opens a fresh store of `adapter` per call and releases all of them after each test. */
export function useStorage(adapter: StorageAdapter): () => Promise<OpenedStorage> {
  return perTest(adapter, (cleanup) => adapter.open(cleanup));
}
