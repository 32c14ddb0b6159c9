import type { CreateProject, PatchProject } from '../../catalog/index.js';
import {
  GatewayError, requireSession, type Clock, type ConnectorSelectionReader, type ProjectRecord, type ProjectStore, type SessionRecord,
  type SessionStore, type SettingsStore,
} from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';

export interface ConnectorSelectionDeps {
  sessions: SessionStore;
  projects: ProjectStore;
  settings: SettingsStore;
  registry: SourceRegistry;
  clock: Clock;
  /**
   * This process is the only writer of Projects and settings (the embedded store): their
   * selections are kept in memory between changes instead of read per call (default false).
   */
  storeOwned?: boolean;
}

/** Connector selections of the global settings, Projects and Sessions, and who must hear of changes. */
export interface ConnectorSelection extends ConnectorSelectionReader {
  globalConnectors(): Promise<string[] | null>;
  setGlobalConnectors(connectors: string[] | null): Promise<void>;
  listProjects(): Promise<ProjectRecord[]>;
  createProject(request: CreateProject): Promise<ProjectRecord>;
  updateProject(id: string, patch: PatchProject): Promise<ProjectRecord>;
  setSessionConnectors(id: string, connectors: string[] | null): Promise<SessionRecord>;
  /** Removes a deleted source from every selection (global, Projects, Sessions). */
  forgetSource(sourceId: string): Promise<void>;
}

/** The first selection that is not `null`: Session, then Project, then global (`null`: every source). */
export function decideEffectiveConnectors(
  session: string[] | null,
  project: string[] | null | undefined,
  global: string[] | null,
): string[] | null {
  return session ?? project ?? global;
}

/** The one rule for which sources a Session may use: tools/list shows, and tools/call accepts, exactly these. */
export function isSourceSelected(selected: readonly string[] | null, sourceId: string): boolean {
  return selected === null || selected.includes(sourceId);
}

/** Most Projects whose inherited selection is kept in memory at once. */
const MAX_KEPT_PROJECTS = 1000;

/** Creates the selection service over the stores; every accepted selection names registered sources only. */
export function createConnectorSelection(deps: ConnectorSelectionDeps): ConnectorSelection {
  return new StoredConnectorSelection(deps);
}

class StoredConnectorSelection implements ConnectorSelection {
  private readonly listeners = new Set<() => void>();
  /** Project and global selections by Project id, kept between changes when the store is ours alone. */
  private readonly kept = new Map<string, { project: string[] | null | undefined; global: string[] | null }>();
  /** Bumped by every change, so a read that started before one is not kept. */
  private version = 0;

  constructor(private readonly deps: ConnectorSelectionDeps) {}

  async effective(session: SessionRecord): Promise<string[] | null> {
    // A Session's own selection decides alone: nothing else needs reading.
    if (session.connectors !== null) return session.connectors;
    const inherited = this.kept.get(session.projectId) ?? (await this.readInherited(session.projectId));
    return decideEffectiveConnectors(session.connectors, inherited.project, inherited.global);
  }

  private async readInherited(projectId: string): Promise<{ project: string[] | null | undefined; global: string[] | null }> {
    const readAt = this.version;
    const [project, global] = await Promise.all([this.deps.projects.get(projectId), this.deps.settings.connectors()]);
    const inherited = { project: project?.connectors, global };
    if (this.deps.storeOwned && readAt === this.version) {
      // Bounded: sessions may name any number of Project ids.
      if (this.kept.size >= MAX_KEPT_PROJECTS) this.kept.clear();
      this.kept.set(projectId, inherited);
    }
    return inherited;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  globalConnectors(): Promise<string[] | null> {
    return this.deps.settings.connectors();
  }

  async setGlobalConnectors(connectors: string[] | null): Promise<void> {
    await this.deps.settings.setConnectors(this.known(connectors));
    this.changed();
  }

  listProjects(): Promise<ProjectRecord[]> {
    return this.deps.projects.list();
  }

  async createProject(request: CreateProject): Promise<ProjectRecord> {
    if (await this.deps.projects.get(request.id)) {
      throw new GatewayError('conflict', `id: the project ${request.id} already exists; change it with PATCH /api/projects/${request.id}.`);
    }
    const now = this.now();
    const project: ProjectRecord = { id: request.id, name: request.name ?? request.id, connectors: this.known(request.connectors), createdAt: now, updatedAt: now };
    await this.deps.projects.create(project);
    this.changed();
    return project;
  }

  async updateProject(id: string, patch: PatchProject): Promise<ProjectRecord> {
    const current = await this.deps.projects.get(id);
    if (!current) throw new GatewayError('not_found', `No project ${id.slice(0, 80)}; create it with POST /api/projects.`);
    const next: ProjectRecord = {
      ...current,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.connectors !== undefined ? { connectors: this.known(patch.connectors) } : {}),
      updatedAt: this.now(),
    };
    await this.deps.projects.update(next);
    this.changed();
    return next;
  }

  async setSessionConnectors(id: string, connectors: string[] | null): Promise<SessionRecord> {
    await requireSession(this.deps.sessions, id);
    await this.deps.sessions.setConnectors(id, this.known(connectors));
    this.changed();
    return (await this.deps.sessions.get(id))!;
  }

  async forgetSource(sourceId: string): Promise<void> {
    await forget(this.deps, sourceId, this.now());
    this.changed();
  }

  private known(connectors: string[] | null): string[] | null {
    return checkKnown(this.deps.registry, connectors);
  }

  private changed(): void {
    this.version += 1;
    this.kept.clear();
    for (const listener of this.listeners) listener();
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function checkKnown(registry: SourceRegistry, connectors: string[] | null): string[] | null {
  if (connectors === null) return null;
  connectors.forEach((id, index) => {
    if (!registry.get(id)) {
      throw new GatewayError('invalid_input', `connectors.${index}: no source "${id.slice(0, 80)}"; see GET /api/catalog/sources.`, {
        details: { field: `connectors.${index}` },
      });
    }
  });
  return [...new Set(connectors)];
}

async function forget(deps: ConnectorSelectionDeps, sourceId: string, now: string): Promise<void> {
  const without = (list: string[]) => list.filter((id) => id !== sourceId);
  const global = await deps.settings.connectors();
  if (global?.includes(sourceId)) await deps.settings.setConnectors(without(global));
  for (const project of await deps.projects.list()) {
    if (project.connectors?.includes(sourceId)) await deps.projects.update({ ...project, connectors: without(project.connectors), updatedAt: now });
  }
  for (const session of await deps.sessions.list()) {
    if (session.connectors?.includes(sourceId)) await deps.sessions.setConnectors(session.id, without(session.connectors));
  }
}
