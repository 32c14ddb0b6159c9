export { openPostgresStorage, type OpenPostgresStorageOptions } from './openPostgresStorage.js';
export { PgDatabase } from './pgDatabase.js';
export { MIGRATION_LOCK_ID, PG_MIGRATIONS_DIR } from './pgMigrate.js';
export { isPostgresUrl, postgresPassword, postgresUrlProblem, redactPostgresUrl } from './postgresUrl.js';
export { copyEmbeddedStore, type CopyEmbeddedStoreOptions, type CopyReport } from './copyEmbeddedStore.js';
export { openPgSecretStores } from './openPgSecretStores.js';
