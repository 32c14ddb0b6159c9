import type { OAuthLoginStore, StoredOAuthLogin } from '../../gateway/core/index.js';
import { OAUTH_LOGINS_FILE } from '../customServerFileStore.js';
import { decryptFile, encryptFile } from '../encryptedFile.js';
import { storedOAuthLoginSchema } from '../oauthLoginFileStore.js';
import type { PgDatabase } from './pgDatabase.js';
import { BUMP_SECRETS_REVISION } from './pgSecretState.js';

/** The additional data a login's row is encrypted with: its server id. */
function loginLabel(serverId: string): string {
  return `${OAUTH_LOGINS_FILE}#${serverId}`;
}

export function encryptOAuthLogin(key: Buffer, serverId: string, login: StoredOAuthLogin): Buffer {
  return encryptFile(key, JSON.stringify(login), loginLabel(serverId));
}

/**
 * OAuth logins in PostgreSQL, one encrypted row per server (see migration 007). A login belongs to
 * one server and is replaced whole (a new login, a token refresh), so the last save wins, as with
 * the file; each save bumps the secrets revision so the other replicas pick the login up.
 */
export class PgOAuthLoginStore implements OAuthLoginStore {
  constructor(
    private readonly db: PgDatabase,
    private readonly key: Buffer,
    private readonly keyPath: string,
  ) {}

  async load(): Promise<Record<string, StoredOAuthLogin>> {
    const logins: Record<string, StoredOAuthLogin> = {};
    for (const row of await this.db.all('SELECT server_id, ciphertext FROM oauth_logins ORDER BY server_id')) {
      const serverId = String(row.server_id);
      const text = decryptFile(this.key, row.ciphertext as Buffer, loginLabel(serverId));
      const parsed = text === undefined ? undefined : storedOAuthLoginSchema.safeParse(JSON.parse(text));
      if (!parsed?.success) {
        throw new Error(
          `Cannot read the OAuth login of ${serverId} in PostgreSQL (${this.db.shownUrl}) with ${this.keyPath}: the key is not the one it was written with, or the row is damaged. ` +
            'Point --secret-key-file (SCIGATE_SECRET_KEY_FILE) at the key the other replicas use, or clear the login and log in again.',
        );
      }
      logins[serverId] = parsed.data as StoredOAuthLogin;
    }
    return logins;
  }

  async save(serverId: string, login: StoredOAuthLogin | undefined): Promise<void> {
    const statement = login
      ? {
          sql: 'INSERT INTO oauth_logins (server_id, version, ciphertext) SELECT ?, revision, ? FROM bump ON CONFLICT (server_id) DO UPDATE SET version = EXCLUDED.version, ciphertext = EXCLUDED.ciphertext',
          params: [serverId, encryptOAuthLogin(this.key, serverId, login)],
        }
      : { sql: 'DELETE FROM oauth_logins WHERE server_id = ? AND EXISTS (SELECT 1 FROM bump)', params: [serverId] };
    // One statement: the revision bump and the row change commit together.
    await this.db.write(`WITH bump AS (${BUMP_SECRETS_REVISION}) ${statement.sql}`, statement.params);
  }
}
