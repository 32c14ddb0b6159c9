import type { SettingsStore } from '../gateway/core/index.js';
import { json, rowMapper, text } from './rowMapper.js';
import type { SqlDatabase } from './sqlDatabase.js';

/** One setting: a key and its JSON value. */
interface SettingRow {
  key: string;
  value: unknown;
}

const settings = rowMapper<SettingRow>('settings', { key: text, value: json });

/** Global settings in the embedded database, one JSON value per key. */
export class SettingsRepository implements SettingsStore {
  constructor(private readonly db: SqlDatabase) {}

  async connectors(): Promise<string[] | null> {
    const row = this.db.all("SELECT * FROM settings WHERE key = 'connectors'")[0];
    return row ? (settings.fromRow(row).value as string[] | null) : null;
  }

  async setConnectors(connectors: string[] | null): Promise<void> {
    // One row per key: a new value replaces the old one.
    await this.db.write('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', settings.toParams({ key: 'connectors', value: connectors }));
  }
}
