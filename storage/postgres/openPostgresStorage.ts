import { randomUUID } from 'node:crypto';
import type { Logger, ReplicaStore, Storage } from '../../gateway/core/index.js';
import { ReplicaRepository } from '../replicaRepository.js';
import { sqlRepositories } from '../sqlRepositories.js';
import { PgCas } from './pgCas.js';
import { PgDatabase } from './pgDatabase.js';
import { PgInvocationStore } from './pgInvocationStore.js';
import { migratePostgres } from './pgMigrate.js';

export interface OpenPostgresStorageOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  log: Logger;
  now?: () => Date;
  /** Connections this process keeps open at most (default 10). */
  poolSize?: number;
  /** The flag the URL came from, named in a failed connect's message (default --store (SCIGATE_STORE)). */
  urlFlag?: string;
}

/**
 * Opens the PostgreSQL store: connects (a clear `storage_unavailable` when it cannot), applies the
 * missing migrations under the advisory lock, and serves every port with the shared repositories.
 */
export async function openPostgresStorage(options: OpenPostgresStorageOptions): Promise<Storage & { database: PgDatabase; replicas: ReplicaStore }> {
  const database = await PgDatabase.connect(options);
  try {
    const ran = await migratePostgres(database, options.now ?? (() => new Date()));
    options.log.info({ store: database.shownUrl, migrations: ran }, 'PostgreSQL store opened');
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  // Pending work this process creates is stored with its replica id, so the other replicas' start-up
  // sweeps leave it alone while this process's heartbeat lasts (see the runtime's replica liveness).
  const replicas = new ReplicaRepository(database, `rep_${randomUUID()}`);
  const cas = new PgCas(database);
  return {
    database,
    replicas,
    ...sqlRepositories(database, replicas.self),
    invocations: new PgInvocationStore(database, cas, replicas.self),
    cas,
    close: () => database.close(),
  };
}
