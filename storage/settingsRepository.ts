import type { SettingsStore } from '../gateway/core/index.js';
import { json, rowMapper, text } from './rowMapper.js';
import type { SqlExecutor } from './sqlExecutor.js';

/** One setting: a key and its JSON value. */
interface SettingRow {
  key: string;
  value: unknown;
}

const settings = rowMapper<SettingRow>('settings', { key: text, value: json });

/** Global settings in a SQL database (embedded or PostgreSQL), one JSON value per key. */
export class SettingsRepository implements SettingsStore {
  constructor(private readonly db: SqlExecutor) {}

  async connectors(): Promise<string[] | null> {
    const row = (await this.db.all("SELECT * FROM settings WHERE key = 'connectors'"))[0];
    return row ? (settings.fromRow(row).value as string[] | null) : null;
  }

  async setConnectors(connectors: string[] | null): Promise<void> {
    // One row per key: a new value replaces the old one (an upsert both engines speak).
    await this.db.write('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', settings.toParams({ key: 'connectors', value: connectors }));
  }
}
