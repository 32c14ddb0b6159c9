import { join } from 'node:path';
import { ArtifactRepository } from './artifactRepository.js';
import type { CustomServerStore, Logger, OAuthLoginStore, Storage } from '../gateway/core/index.js';
import { CustomServerFileStore } from './customServerFileStore.js';
import { ExtractionRepository } from './extractionRepository.js';
import { ensurePrivateDir } from './dataDir.js';
import { FileCas } from './fileCas.js';
import { OAuthLoginFileStore } from './oauthLoginFileStore.js';
import { InvocationRepository } from './invocationRepository.js';
import { ProjectRepository } from './projectRepository.js';
import { PermissionRepository } from './permissionRepository.js';
import { SessionRepository } from './sessionRepository.js';
import { SettingsRepository } from './settingsRepository.js';
import { SqlDatabase } from './sqlDatabase.js';

export interface OpenStorageOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  checkpointEvery?: number;
  /** Told how long each journal fsync took, in ms (metrics). */
  onJournalFsync?: (ms: number) => void;
}

/** Opens the embedded store in `dataDir` (created 0700): database + journal and the CAS. */
export async function openStorage(options: OpenStorageOptions): Promise<Storage & { database: SqlDatabase; customServerStore: CustomServerStore; oauthLogins: OAuthLoginStore }> {
  await ensurePrivateDir(options.dataDir);
  // Opened first: a missing or wrong model-secrets.key stops start-up before anything else.
  const customServerStore = await CustomServerFileStore.open(options.dataDir);
  const oauthLogins = await OAuthLoginFileStore.open(options.dataDir, customServerStore.key);
  const database = await SqlDatabase.open(options);
  const cas = new FileCas(join(options.dataDir, 'cas'));
  return {
    database,
    sessions: new SessionRepository(database),
    invocations: new InvocationRepository(database, cas),
    permissions: new PermissionRepository(database),
    cas,
    projects: new ProjectRepository(database),
    settings: new SettingsRepository(database),
    artifacts: new ArtifactRepository(database),
    extractions: new ExtractionRepository(database),
    customServerStore,
    oauthLogins,
    close: () => database.close(),
  };
}
