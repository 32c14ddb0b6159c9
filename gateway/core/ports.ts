import type { CustomServerConfig } from '../../catalog/index.js';
import type { InvocationRecord, ProjectRecord, SessionRecord } from './records.js';

/** Persists Sessions; every write is durable when the promise resolves. */
export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  end(id: string, endedAt: string): Promise<void>;
  get(id: string): SessionRecord | undefined;
  list(): SessionRecord[];
  /** Replaces the Session's connector selection (`null` inherits the Project's / global one). */
  setConnectors(id: string, connectors: string[] | null): Promise<void>;
}

/** Persists Invocation audit rows; every write is durable when the promise resolves. */
export interface InvocationStore {
  record(invocation: InvocationRecord): Promise<void>;
  get(id: string): InvocationRecord | undefined;
  listBySession(sessionId: string, options?: { limit?: number }): InvocationRecord[];
}

/** Content-addressed, immutable blob store keyed by sha256 hex. */
export interface Cas {
  /** Stores the bytes (durably) and returns their sha256 hex. Storing the same bytes twice is a no-op. */
  put(bytes: Uint8Array): Promise<string>;
  get(hash: string): Promise<Buffer | undefined>;
}

/** Everything the gateway persists, behind one handle so main.ts opens and closes it once. */
export interface Storage {
  sessions: SessionStore;
  invocations: InvocationStore;
  cas: Cas;
  projects: ProjectStore;
  settings: SettingsStore;
  /** Writes a checkpoint and releases files. */
  close(): Promise<void>;
}

/** Persists Projects and their connector selections; every write is durable when the promise resolves. */
export interface ProjectStore {
  get(id: string): ProjectRecord | undefined;
  list(): ProjectRecord[];
  create(project: ProjectRecord): Promise<void>;
  /** Replaces the stored row of an existing Project. */
  update(project: ProjectRecord): Promise<void>;
}

/** Global settings; today the global connector selection (`null`: every enabled source). */
export interface SettingsStore {
  connectors(): string[] | null;
  setConnectors(connectors: string[] | null): Promise<void>;
}

/** The saved custom MCP servers (`custom-mcp-servers.enc`); secrets stay encrypted at rest. */
export interface CustomServerStore {
  /** Reads every saved server; rejects with a clear message when the file cannot be decrypted. */
  load(): Promise<CustomServerConfig[]>;
  /** Replaces the saved set atomically; writes are queued, so the last call wins. */
  save(servers: CustomServerConfig[]): Promise<void>;
}

/** The connector selection a Session effectively has (Session → Project → global), and its changes. */
export interface ConnectorSelectionReader {
  /** Source IDs the Session may use, or `null` for every enabled source. */
  effective(session: SessionRecord): string[] | null;
  /** Subscribes to selection changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}
