import type { CustomServerStore, OAuthLoginStore } from '../../gateway/core/index.js';
import type { PgDatabase } from './pgDatabase.js';
import { PgCustomServerStore } from './pgCustomServerStore.js';
import { PgOAuthLoginStore } from './pgOAuthLoginStore.js';
import { verifySecretKey } from './pgSecretState.js';

/**
 * The custom server and OAuth login stores in PostgreSQL under the shared `key` (read from
 * `keyPath`): refused now when the key is not the one the rows were written with; the servers are
 * read once, so an unreadable row stops start-up rather than the first edit.
 */
export async function openPgSecretStores(db: PgDatabase, key: Buffer, keyPath: string): Promise<{ customServerStore: CustomServerStore; oauthLogins: OAuthLoginStore }> {
  await verifySecretKey(db, key, keyPath);
  const customServerStore = new PgCustomServerStore(db, key, keyPath);
  await customServerStore.load();
  return { customServerStore, oauthLogins: new PgOAuthLoginStore(db, key, keyPath) };
}
