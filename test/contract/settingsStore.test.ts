import { describe, expect, it } from 'vitest';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

/** What every SettingsStore must do. */
function settingsStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('the global selection is null (every enabled source) until set', async () => {
    const { settings } = (await open()).storage;
    expect(await settings.connectors()).toBeNull();
  });

  it('the last selection set wins, an empty one included; null inherits again', async () => {
    const { settings } = (await open()).storage;
    await settings.setConnectors(['arxiv', 'pubmed']);
    expect(await settings.connectors()).toEqual(['arxiv', 'pubmed']);
    await settings.setConnectors([]);
    expect(await settings.connectors()).toEqual([]);
    await settings.setConnectors(null);
    expect(await settings.connectors()).toBeNull();
  });

  it('a selection read back is a copy', async () => {
    const { settings } = (await open()).storage;
    await settings.setConnectors(['arxiv']);
    (await settings.connectors())!.push('pubmed');
    expect(await settings.connectors()).toEqual(['arxiv']);
  });

  it('keeps the selection across a restart', async () => {
    const opened = await open();
    await opened.storage.settings.setConnectors(['arxiv']);
    const { settings } = (await opened.reopen()).storage;
    expect(await settings.connectors()).toEqual(['arxiv']);
  });
}

describe.each(storageAdapters)('SettingsStore contract: $name', settingsStoreContract);
