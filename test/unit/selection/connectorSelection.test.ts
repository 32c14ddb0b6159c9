import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import { createConnectorSelection } from '../../../gateway/selection/index.js';
import { MemoryProjectStore, MemorySettingsStore } from '../../../storage/index.js';
import { FakeClock, testSession } from '../../fixtures/brokerDoubles.js';
import { MemorySessions } from '../../fixtures/permissionDoubles.js';

async function setup(storeOwned: boolean) {
  const clock = new FakeClock();
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
  const projects = new MemoryProjectStore();
  const settings = new MemorySettingsStore();
  const sessions = new MemorySessions();
  const reads = { project: vi.spyOn(projects, 'get'), global: vi.spyOn(settings, 'connectors') };
  const selection = createConnectorSelection({ sessions, projects, settings, registry, clock, storeOwned });
  return { selection, reads, projects, settings };
}

describe('the effective connector selection of a call', () => {
  it('with the store ours alone, reads the Project and global selections once until one of them changes', async () => {
    const { selection, reads } = await setup(true);
    for (let i = 0; i < 3; i++) expect(await selection.effective(testSession)).toBeNull();
    expect(reads.project).toHaveBeenCalledTimes(1);
    expect(reads.global).toHaveBeenCalledTimes(1);
    await selection.setGlobalConnectors([]);
    expect(await selection.effective(testSession)).toEqual([]);
    await selection.setGlobalConnectors(null);
    await selection.createProject({ id: testSession.projectId, connectors: [] });
    expect(await selection.effective(testSession)).toEqual([]);
    expect(await selection.effective(testSession)).toEqual([]);
    expect(reads.global).toHaveBeenCalledTimes(3);
  });

  it('with a store other replicas write too, reads them for every call', async () => {
    const { selection, reads, settings } = await setup(false);
    expect(await selection.effective(testSession)).toBeNull();
    // Another replica's write reaches the store without passing this process's selection service.
    await settings.setConnectors([]);
    expect(await selection.effective(testSession)).toEqual([]);
    expect(reads.global).toHaveBeenCalledTimes(2);
  });

  it('a Session with its own selection needs no other read', async () => {
    const { selection, reads } = await setup(true);
    expect(await selection.effective({ ...testSession, connectors: [] })).toEqual([]);
    expect(reads.project).not.toHaveBeenCalled();
    expect(reads.global).not.toHaveBeenCalled();
  });
});
