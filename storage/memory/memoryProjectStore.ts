import type { ProjectRecord, ProjectStore } from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** Projects in memory. */
export class MemoryProjectStore implements ProjectStore {
  protected readonly byId = new Map<string, ProjectRecord>();

  async get(id: string): Promise<ProjectRecord | undefined> {
    const project = this.byId.get(id);
    return project && copy(project);
  }

  async list(): Promise<ProjectRecord[]> {
    return byKey(this.byId.values(), (p) => p.id).map(copy);
  }

  async create(project: ProjectRecord): Promise<void> {
    if (this.byId.has(project.id)) throw duplicateKey('projects', project.id);
    this.byId.set(project.id, copy(project));
  }

  async update(project: ProjectRecord): Promise<void> {
    const current = this.byId.get(project.id);
    // Like the SQL UPDATE: a missing row stays missing, and created_at never changes.
    if (current) this.byId.set(project.id, { ...copy(project), createdAt: current.createdAt });
  }
}
