import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { customServerFileSchema, type CustomServerConfig } from '../catalog/index.js';
import { describeZodError } from '../catalog/index.js';
import type { CustomServerStore } from '../gateway/core/index.js';
import { SerialFileWriter } from './serialFileWriter.js';
import { decryptFile, encryptFile } from './encryptedFile.js';
import { resolveSecretKey } from './secretKey.js';

export const CUSTOM_SERVERS_FILE = 'custom-mcp-servers.enc';
export const OAUTH_LOGINS_FILE = 'mcp-oauth.enc';
/** Every file encrypted under `model-secrets.key`, so a lost key is noticed instead of replaced. */
export const ENCRYPTED_FILES = [CUSTOM_SERVERS_FILE, OAUTH_LOGINS_FILE] as const;

/**
 * `custom-mcp-servers.enc`: the saved custom servers, AES-256-GCM under `model-secrets.key`.
 * Saves are queued and each is temp file → fsync → rename, mode 0600.
 */
export class CustomServerFileStore implements CustomServerStore {
  private readonly writer: SerialFileWriter;

  private constructor(
    private readonly path: string,
    /** Where `key` was read from. */
    readonly keyPath: string,
    /** The data directory's key; `mcp-oauth.enc` is encrypted under it too. */
    readonly key: Buffer,
  ) {
    this.writer = new SerialFileWriter(path);
  }

  /**
   * Opens the store in `dataDir` under its `model-secrets.key` (created on first use) or `keyFile`;
   * rejects now if the saved file cannot be read.
   */
  static async open(dataDir: string, keyFile?: string): Promise<CustomServerFileStore> {
    const { key, path } = await resolveSecretKey({ dataDir, ...(keyFile !== undefined ? { keyFile } : {}) }, ENCRYPTED_FILES);
    const store = new CustomServerFileStore(join(dataDir, CUSTOM_SERVERS_FILE), path, key);
    await store.load();
    return store;
  }

  async load(): Promise<CustomServerConfig[]> {
    const data = await readFile(this.path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    if (!data) return [];
    const text = decryptFile(this.key, data, CUSTOM_SERVERS_FILE);
    if (text === undefined) {
      throw new Error(
        `Cannot decrypt ${this.path} with ${this.keyPath}: the key is not the one the file was written with, or the file is damaged. ` +
          'Restore the original key; scigate does not start with an empty custom server configuration instead.',
      );
    }
    const parsed = customServerFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      const { field, message } = describeZodError(parsed.error);
      throw new Error(`${this.path} holds an invalid configuration at ${field || '(root)'}: ${message}`);
    }
    return parsed.data.servers;
  }

  save(servers: CustomServerConfig[]): Promise<void> {
    const bytes = encryptFile(this.key, JSON.stringify({ version: 1, servers }), CUSTOM_SERVERS_FILE);
    return this.writer.write(bytes);
  }

  /** Waits for the save in flight and refuses later ones (the gateway is stopping). */
  close(): Promise<void> {
    return this.writer.close();
  }
}
