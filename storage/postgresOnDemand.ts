import type * as Postgres from './postgres/index.js';

/**
 * The PostgreSQL adapters, imported on first use: an embedded store never loads `pg` (a tenth of
 * what a `scigate serve` start spends on loading modules).
 */
const postgres = () => import('./postgres/index.js');

export const openPostgresStorage: typeof Postgres.openPostgresStorage = async (...args) => (await postgres()).openPostgresStorage(...args);
export const openPgSecretStores: typeof Postgres.openPgSecretStores = async (...args) => (await postgres()).openPgSecretStores(...args);
export const copyEmbeddedStore: typeof Postgres.copyEmbeddedStore = async (...args) => (await postgres()).copyEmbeddedStore(...args);
