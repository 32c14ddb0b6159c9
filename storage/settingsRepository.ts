import type { SettingsStore } from '../gateway/core/index.js';
import type { SqlDatabase } from './sqlDatabase.js';

/** Global settings in the embedded database, one JSON value per key. */
export class SettingsRepository implements SettingsStore {
  constructor(private readonly db: SqlDatabase) {}

  connectors(): string[] | null {
    const row = this.db.all("SELECT value FROM settings WHERE key = 'connectors'")[0];
    return row ? (JSON.parse(String(row.value)) as string[] | null) : null;
  }

  setConnectors(connectors: string[] | null): Promise<void> {
    return this.db.write("INSERT OR REPLACE INTO settings (key, value) VALUES ('connectors', ?)", [JSON.stringify(connectors)]);
  }
}
