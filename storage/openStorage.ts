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

/** The secrets that stay in encrypted files of the data directory, whichever store holds the rest. */
export interface EncryptedStores {
  customServerStore: CustomServerStore;
  oauthLogins: OAuthLoginStore;
}

/** Opens `custom-mcp-servers.enc` and `mcp-oauth.enc` under the data directory's `model-secrets.key`. */
export async function openEncryptedStores(dataDir: string): Promise<EncryptedStores> {
  const customServerStore = await CustomServerFileStore.open(dataDir);
  const oauthLogins = await OAuthLoginFileStore.open(dataDir, customServerStore.key);
  return { customServerStore, oauthLogins };
}

export interface OpenStorageOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  checkpointEvery?: number;
  /** Told how long each journal fsync took, in ms (metrics). */
  onJournalFsync?: (ms: number) => void;
}

/** Opens the embedded store in `dataDir` (created 0700): database + journal and the CAS. */
export async function openStorage(options: OpenStorageOptions): Promise<Storage & EncryptedStores & { database: SqlDatabase }> {
  await ensurePrivateDir(options.dataDir);
  // Opened first: a missing or wrong model-secrets.key stops start-up before anything else.
  const { customServerStore, oauthLogins } = await openEncryptedStores(options.dataDir);
  const database = await SqlDatabase.open(options);
  return {
    database,
    sessions: new SessionRepository(database),
    invocations: new InvocationRepository(database),
    permissions: new PermissionRepository(database),
    cas: new FileCas(join(options.dataDir, 'cas')),
    projects: new ProjectRepository(database),
    settings: new SettingsRepository(database),
    artifacts: new ArtifactRepository(database),
    extractions: new ExtractionRepository(database),
    customServerStore,
    oauthLogins,
    close: () => database.close(),
  };
}
