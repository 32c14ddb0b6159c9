import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { OAuthLoginStore, StoredOAuthLogin } from '../gateway/core/index.js';
import { SerialFileWriter } from './serialFileWriter.js';
import { OAUTH_LOGINS_FILE } from './customServerFileStore.js';
import { decryptFile, encryptFile } from './encryptedFile.js';
import { SECRET_KEY_FILE } from './secretKey.js';

const json = z.record(z.string(), z.unknown());
/** One saved login, as both OAuth login stores read it back. */
export const storedOAuthLoginSchema = z
  .object({
    signature: z.string(),
    redirectUri: z.string(),
    resource: z.string().optional(),
    clientInformation: json,
    tokens: json,
    discovery: json,
    expiresAt: z.number().optional(),
  })
  .strict();
const fileSchema = z.object({ version: z.literal(1), logins: z.record(z.string(), storedOAuthLoginSchema) }).strict();

/**
 * `mcp-oauth.enc`: custom servers' OAuth client registrations and tokens, AES-256-GCM under the
 * same `model-secrets.key` as the server config, each save temp file → fsync → rename, mode 0600.
 */
export class OAuthLoginFileStore implements OAuthLoginStore {
  private readonly writer: SerialFileWriter;
  private logins: Record<string, StoredOAuthLogin> = {};

  private constructor(
    private readonly path: string,
    private readonly keyPath: string,
    private readonly key: Buffer,
  ) {
    this.writer = new SerialFileWriter(path);
  }

  /** Opens the store under `key` (the caller loads it from `keyPath`); rejects now if the saved file cannot be read. */
  static async open(dataDir: string, key: Buffer, keyPath = join(dataDir, SECRET_KEY_FILE)): Promise<OAuthLoginFileStore> {
    const store = new OAuthLoginFileStore(join(dataDir, OAUTH_LOGINS_FILE), keyPath, key);
    store.logins = await store.read();
    return store;
  }

  async load(): Promise<Record<string, StoredOAuthLogin>> {
    return { ...this.logins };
  }

  save(serverId: string, login: StoredOAuthLogin | undefined): Promise<void> {
    const next = { ...this.logins };
    if (login) next[serverId] = login;
    else delete next[serverId];
    this.logins = next;
    const bytes = encryptFile(this.key, JSON.stringify({ version: 1, logins: next }), OAUTH_LOGINS_FILE);
    return this.writer.write(bytes);
  }

  /** Waits for the save in flight and refuses later ones (the gateway is stopping). */
  close(): Promise<void> {
    return this.writer.close();
  }

  private async read(): Promise<Record<string, StoredOAuthLogin>> {
    const data = await readFile(this.path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    if (!data) return {};
    const text = decryptFile(this.key, data, OAUTH_LOGINS_FILE);
    if (text === undefined) {
      throw new Error(
        `Cannot decrypt ${this.path} with ${this.keyPath}: the key is not the one the file was written with, or the file is damaged. ` +
          'Restore the original key, or delete the file to log in to the OAuth servers again.',
      );
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.path} is not a valid OAuth login file; delete it to log in to the OAuth servers again.`);
    return parsed.data.logins as Record<string, StoredOAuthLogin>;
  }
}
