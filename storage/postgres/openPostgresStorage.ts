import type { Logger, Storage } from '../../gateway/core/index.js';
import { ArtifactRepository } from '../artifactRepository.js';
import { ExtractionRepository } from '../extractionRepository.js';
import { PermissionRepository } from '../permissionRepository.js';
import { ProjectRepository } from '../projectRepository.js';
import { SessionRepository } from '../sessionRepository.js';
import { SettingsRepository } from '../settingsRepository.js';
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
}

/**
 * Opens the PostgreSQL store: connects (a clear `storage_unavailable` when it cannot), applies the
 * missing migrations under the advisory lock, and serves every port with the shared repositories.
 */
export async function openPostgresStorage(options: OpenPostgresStorageOptions): Promise<Storage & { database: PgDatabase }> {
  const database = await PgDatabase.connect(options);
  try {
    const ran = await migratePostgres(database, options.now ?? (() => new Date()));
    options.log.info({ store: database.shownUrl, migrations: ran }, 'PostgreSQL store opened');
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  const cas = new PgCas(database);
  return {
    database,
    sessions: new SessionRepository(database),
    invocations: new PgInvocationStore(database, cas),
    permissions: new PermissionRepository(database),
    cas,
    projects: new ProjectRepository(database),
    settings: new SettingsRepository(database),
    artifacts: new ArtifactRepository(database),
    extractions: new ExtractionRepository(database),
    close: () => database.close(),
  };
}
