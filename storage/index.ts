export { openStorage, type OpenStorageOptions } from './openStorage.js';
export { followAdminToken, loadAdminToken, type AdminToken, type LiveAdminToken } from './adminToken.js';
export { ensurePrivateDir } from './dataDir.js';
export { writeFileAtomic, fsyncDirectory, FILE_MODE } from './atomicWrite.js';
export { SqlDatabase } from './sqlDatabase.js';
export { FileCas } from './fileCas.js';
export { PermissionRepository } from './permissionRepository.js';
export { ExtractionRepository } from './extractionRepository.js';
export { CustomServerFileStore, CUSTOM_SERVERS_FILE, OAUTH_LOGINS_FILE } from './customServerFileStore.js';
export { OAuthLoginFileStore } from './oauthLoginFileStore.js';
export { SECRET_KEY_FILE } from './secretKey.js';
export {
  openMemoryStorage, MemorySessionStore, MemoryInvocationStore, MemoryPermissionStore, MemoryProjectStore, MemorySettingsStore, MemoryCas, MemoryArtifactStore, MemoryExtractionStore,
} from './memory/index.js';
export { ProcessGroupFiles, PROCESS_GROUPS_DIR } from './processGroupFiles.js';
export { FileWorkspace, WORKSPACES_DIR, COMPLETED_FILE_MODE } from './fileWorkspace.js';
export { checkWorkspacePath, numberedPath, PART_SUFFIX } from './workspacePaths.js';
export { ArtifactRepository } from './artifactRepository.js';
export { openStore, type OpenStoreOptions, type OpenedStore } from './openStore.js';
export { copyEmbeddedStore, openPostgresStorage } from './postgresOnDemand.js';
export type { CopyReport } from './postgres/index.js';
export { isPostgresUrl, postgresPassword, postgresUrlProblem, redactPostgresUrl } from './postgres/postgresUrl.js';
