import type { Storage } from '../gateway/core/index.js';
import { ArtifactRepository } from './artifactRepository.js';
import { ExtractionRepository } from './extractionRepository.js';
import { PermissionRepository } from './permissionRepository.js';
import { ProjectRepository } from './projectRepository.js';
import { SessionRepository } from './sessionRepository.js';
import { SettingsRepository } from './settingsRepository.js';
import type { SqlExecutor } from './sqlExecutor.js';

/**
 * The ports both SQL engines serve with the same repositories (sql.js and PostgreSQL); `owner` is
 * the replica id stored with pending work on a shared store (none on the embedded one).
 */
export function sqlRepositories(db: SqlExecutor, owner: string | null = null): Pick<Storage, 'sessions' | 'permissions' | 'projects' | 'settings' | 'artifacts' | 'extractions'> {
  return {
    sessions: new SessionRepository(db),
    permissions: new PermissionRepository(db, owner),
    projects: new ProjectRepository(db),
    settings: new SettingsRepository(db),
    artifacts: new ArtifactRepository(db, owner),
    extractions: new ExtractionRepository(db, owner),
  };
}
