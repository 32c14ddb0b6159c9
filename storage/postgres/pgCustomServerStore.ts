import { customServerFileSchema, describeZodError, type CustomServerConfig } from '../../catalog/index.js';
import { GatewayError, canonicalJson, type CustomServerStore } from '../../gateway/core/index.js';
import { CUSTOM_SERVERS_FILE } from '../customServerFileStore.js';
import { decryptFile, encryptFile } from '../encryptedFile.js';
import type { PgDatabase } from './pgDatabase.js';
import { BUMP_SECRETS_REVISION, secretsRevision } from './pgSecretState.js';

/** The additional data a server's row is encrypted with: its id, so rows cannot be swapped. */
export function customServerLabel(id: string): string {
  return `${CUSTOM_SERVERS_FILE}#${id}`;
}

export function encryptCustomServer(key: Buffer, config: CustomServerConfig): Buffer {
  return encryptFile(key, JSON.stringify(config), customServerLabel(config.id));
}

/** What this replica last read or wrote of one row: a write is conditional on it. */
interface SeenRow {
  version: string;
  json: string;
}

/**
 * Custom servers in PostgreSQL, one encrypted row per server (see migration 007). `save` gets the
 * whole set, as from the file store, and writes only what differs from what this replica last
 * loaded: new servers are inserted, changed ones updated while their row still has the version read,
 * removed ones deleted. A server another replica added meanwhile is not in the last load, so it is
 * left alone; a server another replica changed fails the save with `conflict` (reload, then retry).
 */
export class PgCustomServerStore implements CustomServerStore {
  private seen = new Map<string, SeenRow>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: PgDatabase,
    private readonly key: Buffer,
    private readonly keyPath: string,
  ) {}

  async load(): Promise<CustomServerConfig[]> {
    const rows = await this.db.all('SELECT id, version, ciphertext FROM custom_servers ORDER BY position');
    const servers = rows.map((row) => {
      const id = String(row.id);
      const text = decryptFile(this.key, row.ciphertext as Buffer, customServerLabel(id));
      if (text === undefined) {
        throw new Error(
          `Cannot decrypt custom server ${id} in PostgreSQL (${this.db.shownUrl}) with ${this.keyPath}: the key is not the one it was written with, or the row is damaged. ` +
            'Point --secret-key-file (SCIGATE_SECRET_KEY_FILE) at the key the other replicas use.',
        );
      }
      return { id, version: String(row.version), config: JSON.parse(text) as unknown };
    });
    const parsed = customServerFileSchema.safeParse({ version: 1, servers: servers.map((s) => s.config) });
    if (!parsed.success) {
      const { field, message } = describeZodError(parsed.error);
      throw new Error(`The custom servers in PostgreSQL (${this.db.shownUrl}) hold an invalid configuration at ${field || '(root)'}: ${message}`);
    }
    this.seen = new Map(parsed.data.servers.map((config, i) => [config.id, { version: servers[i]!.version, json: canonicalJson(config) }]));
    return parsed.data.servers;
  }

  save(servers: CustomServerConfig[]): Promise<void> {
    const write = this.queue.then(() => this.write(servers));
    this.queue = write.catch(() => {});
    return write;
  }

  /** Changes whenever any replica saves a server or an OAuth login. */
  changeToken(): Promise<string> {
    return secretsRevision(this.db);
  }

  private async write(servers: CustomServerConfig[]): Promise<void> {
    const next = new Map(servers.map((config) => [config.id, canonicalJson(config)]));
    const changed = servers.filter((config) => this.seen.get(config.id)?.json !== next.get(config.id));
    const removed = [...this.seen.keys()].filter((id) => !next.has(id));
    if (changed.length === 0 && removed.length === 0) return;
    const seen = await this.db.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const version = String((await client.query(BUMP_SECRETS_REVISION)).rows[0].revision);
        const after = new Map(this.seen);
        for (const config of changed) {
          const held = this.seen.get(config.id);
          const ciphertext = encryptCustomServer(this.key, config);
          const result = held
            ? await client.query('UPDATE custom_servers SET version = $1, ciphertext = $2 WHERE id = $3 AND version = $4', [version, ciphertext, config.id, held.version])
            : await client.query('INSERT INTO custom_servers (id, version, ciphertext) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [config.id, version, ciphertext]);
          if (result.rowCount !== 1) throw conflict(config.id);
          after.set(config.id, { version, json: next.get(config.id)! });
        }
        for (const id of removed) {
          const deleted = await client.query('DELETE FROM custom_servers WHERE id = $1 AND version = $2', [id, this.seen.get(id)!.version]);
          // Gone already (another replica deleted it too) is what was asked; changed meanwhile is not.
          if (deleted.rowCount !== 1 && (await client.query('SELECT 1 FROM custom_servers WHERE id = $1', [id])).rowCount) throw conflict(id);
          after.delete(id);
        }
        await client.query('COMMIT');
        return after;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
    this.seen = seen;
  }
}

function conflict(id: string): GatewayError {
  return new GatewayError(
    'conflict',
    `Custom server ${id} was changed on another replica since this one read it; nothing was saved. List the servers again (GET /api/mcp/servers) and repeat the change.`,
  );
}
