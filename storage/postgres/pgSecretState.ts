import { decryptFile, encryptFile } from '../encryptedFile.js';
import type { PgDatabase } from './pgDatabase.js';

/** What `key_check` holds once decrypted: proof that a key is the one the rows were written with. */
const KEY_CHECK_TEXT = 'scigate secret key check v1';
const KEY_CHECK_LABEL = 'secret_state.key_check';

/** Bumps the secrets revision; run in the transaction of every write to custom_servers or oauth_logins. */
export const BUMP_SECRETS_REVISION = 'UPDATE secret_state SET revision = revision + 1 WHERE id = 1 RETURNING revision';

/**
 * Makes sure `key` is the key PostgreSQL's encrypted rows are written with: the first caller stores
 * a known text encrypted under its key, every later one must decrypt it. Rejects with what to do
 * when the key differs (every replica, and `scigate migrate`, must use the same key).
 */
export async function verifySecretKey(db: PgDatabase, key: Buffer, keyPath: string): Promise<void> {
  await db.write('UPDATE secret_state SET key_check = ? WHERE id = 1 AND key_check IS NULL', [encryptFile(key, KEY_CHECK_TEXT, KEY_CHECK_LABEL)]);
  const row = (await db.all('SELECT key_check FROM secret_state WHERE id = 1'))[0];
  if (row && decryptFile(key, row.key_check as Buffer, KEY_CHECK_LABEL) === KEY_CHECK_TEXT) return;
  throw new Error(
    `The secret key ${keyPath} is not the key the custom server configuration and OAuth logins in PostgreSQL (${db.shownUrl}) are encrypted with. ` +
      'Every replica and scigate migrate must use the same key: point --secret-key-file (SCIGATE_SECRET_KEY_FILE) at a copy of the key the first replica used.',
  );
}

/** The secrets revision: it changes whenever any replica saves a custom server or an OAuth login. */
export async function secretsRevision(db: PgDatabase): Promise<string> {
  const row = (await db.all('SELECT revision FROM secret_state WHERE id = 1'))[0];
  return String(row?.revision ?? 0);
}
