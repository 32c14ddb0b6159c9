import type { SettingsStore } from '../../gateway/core/index.js';
import { copy } from './memoryRows.js';

/** Global settings in memory. */
export class MemorySettingsStore implements SettingsStore {
  private selection: string[] | null = null;

  async connectors(): Promise<string[] | null> {
    return copy(this.selection);
  }

  async setConnectors(connectors: string[] | null): Promise<void> {
    this.selection = copy(connectors);
  }
}
