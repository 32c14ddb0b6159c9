import { describe, expect, it } from 'vitest';
import type { ProjectRecord } from '../../gateway/core/index.js';
import { storageAdapters, useStorage, type StorageAdapter } from './storageAdapters.js';

function project(overrides: Partial<ProjectRecord> = {}): ProjectRecord {
  return { id: 'lab', name: 'Lab', connectors: null, createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z', ...overrides };
}

/** What every ProjectStore must do. */
function projectStoreContract(adapter: StorageAdapter) {
  const open = useStorage(adapter);

  it('reads back what was created, listed by id; an unknown id reads as undefined', async () => {
    const { projects } = (await open()).storage;
    await projects.create(project({ id: 'zoo', connectors: ['arxiv'] }));
    await projects.create(project());
    expect(await projects.get('zoo')).toEqual(project({ id: 'zoo', connectors: ['arxiv'] }));
    expect((await projects.list()).map((p) => p.id)).toEqual(['lab', 'zoo']);
    expect(await projects.get('missing')).toBeUndefined();
  });

  it('a second Project with the same id is rejected and the first is kept', async () => {
    const { projects } = (await open()).storage;
    await projects.create(project());
    await expect(projects.create(project({ name: 'Other' }))).rejects.toThrow();
    expect((await projects.get('lab'))?.name).toBe('Lab');
  });

  it('update replaces name, selection and updatedAt, never createdAt; an unknown Project stays unknown', async () => {
    const { projects } = (await open()).storage;
    await projects.create(project());
    const changed = project({ name: 'Renamed', connectors: ['pubmed'], createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2026-12-02T00:00:00.000Z' });
    await projects.update(changed);
    expect(await projects.get('lab')).toEqual({ ...changed, createdAt: '2026-12-01T00:00:00.000Z' });
    await projects.update(project({ id: 'ghost' }));
    expect(await projects.get('ghost')).toBeUndefined();
  });

  it('keeps every write across a restart', async () => {
    const opened = await open();
    await opened.storage.projects.create(project());
    await opened.storage.projects.update(project({ connectors: [] }));
    const { projects } = (await opened.reopen()).storage;
    expect(await projects.list()).toEqual([project({ connectors: [] })]);
  });
}

describe.each(storageAdapters)('ProjectStore contract: $name', projectStoreContract);
