import type { CustomServerConfig } from '../../catalog/index.js';
import type { ArtifactStore } from './artifactPorts.js';
import type { ExtractionStore } from './extractionStore.js';
import type {
  ApprovalMode, InvocationCursor, InvocationIntent, InvocationRecord, PermissionAuthorizationRecord, PermissionGrantRecord, PermissionRequestRecord,
  PermissionRequestStatus, ProjectRecord, SessionRecord,
} from './records.js';

/**
 * Persists Sessions; every write is durable when the promise resolves. Reads are promises too, so an
 * adapter over a network database (PostgreSQL) fits behind the same port.
 */
export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  end(id: string, endedAt: string): Promise<void>;
  /** Ends every Session still open; resolves with how many (a store one process owns, at its start: they were the last run's). */
  endAllOpen(endedAt: string): Promise<number>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Every Session, newest first. */
  list(): Promise<SessionRecord[]>;
  /** Sets the approval mode; a change rotates the permission epoch. Resolves with the updated Session. */
  setApprovalMode(id: string, mode: ApprovalMode): Promise<SessionRecord>;
  /** Replaces the Session's connector selection (`null` inherits the Project's / global one). */
  setConnectors(id: string, connectors: string[] | null): Promise<void>;
}

/**
 * Persists Invocation audit rows in two steps: the intent when a call starts, the whole row when it
 * ends. Each resolves once durable; an adapter may share one sync among all writes that arrived
 * meanwhile (group commit). The intent carries the canonical arguments and the completion the stored
 * result (or error): afterwards `Storage.cas.get(hash)` returns those bytes. A row is visible to
 * `get`/`listBySession` from its completion (or interruption) on; a call still running is not.
 */
export interface InvocationStore {
  /**
   * Records that a call started, with its canonical arguments; durable when the promise resolves.
   * Rejects an id that was used before. A store that groups its writes may hold the intent back
   * for company (a few ms) until `urge`.
   */
  begin(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void>;
  /** The call is about to act (or must answer): make what `begin` holds back durable now. */
  urge?(): void;
  /**
   * Records how a call ended: the whole row, with its result (or error) bytes; visible to reads at
   * once, durable when the promise resolves. May be called before `begin` resolved (the adapter
   * orders it after its intent) and after `begin` was refused (the row then stands alone). Rejects
   * when the id already has a row.
   */
  complete(invocation: InvocationRecord, resultBytes: Uint8Array | null): Promise<void>;
  /**
   * Start-up after a crash: every intent without a completion ends as `interrupted` (error code
   * `interrupted`, ended at `at`). Resolves with how many. With `alive`, only intents whose owner
   * replica is not in it (a shared store: the other replicas' calls in flight go on).
   */
  interruptUnfinished(at: string, alive?: readonly string[]): Promise<number>;
  get(id: string): Promise<InvocationRecord | undefined>;
  /**
   * The Session's Invocations, newest first (ties by id); at most `limit` (default 100). With
   * `before`, the page that follows the row it names.
   */
  listBySession(sessionId: string, options?: { limit?: number; before?: InvocationCursor }): Promise<InvocationRecord[]>;
}

/** How a pending PermissionRequest ended. */
export type PermissionResolution = Pick<
  PermissionRequestRecord,
  'status' | 'resolution' | 'resolvedVia' | 'grantId' | 'authorizationId' | 'resolvedAt'
>;

/** Persists PermissionRequests, Grants and Authorizations (seed §8); writes are durable when they resolve. */
export interface PermissionStore {
  addRequest(request: PermissionRequestRecord): Promise<void>;
  /**
   * Ends a pending request; false (and nothing written) when it was no longer pending. A conditional
   * update (`WHERE status = 'pending'`), so of two concurrent resolvers exactly one wins.
   */
  resolveRequest(id: string, resolution: PermissionResolution): Promise<boolean>;
  getRequest(id: string): Promise<PermissionRequestRecord | undefined>;
  /** The Session's requests in creation order, optionally only those with `status`. */
  listRequests(sessionId: string, options?: { status?: PermissionRequestStatus }): Promise<PermissionRequestRecord[]>;
  /**
   * Marks requests still pending as orphaned (start-up after a crash); resolves with how many. With
   * `alive`, only those whose owner replica is not in it (a shared store: the others' live requests
   * stay); without, every one (one process owns the store).
   */
  orphanPending(at: string, alive?: readonly string[]): Promise<number>;
  addGrant(grant: PermissionGrantRecord): Promise<void>;
  getGrant(id: string): Promise<PermissionGrantRecord | undefined>;
  /** The Session's unrevoked Grant for exactly this action and resource. */
  findGrant(sessionId: string, action: string, resource: string): Promise<PermissionGrantRecord | undefined>;
  /** The Session's Grants (revoked ones too) in creation order. */
  listGrants(sessionId: string): Promise<PermissionGrantRecord[]>;
  /** Revokes a Grant (conditional update); false when it was already revoked or does not exist. */
  revokeGrant(id: string, at: string): Promise<boolean>;
  addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void>;
  /** The Session's authorizations in creation order. */
  listAuthorizations(sessionId: string): Promise<PermissionAuthorizationRecord[]>;
}

/** Content-addressed, immutable blob store keyed by sha256 hex. */
export interface Cas {
  /** Stores the bytes (durably) and returns their sha256 hex. Storing the same bytes twice is a no-op. */
  put(bytes: Uint8Array): Promise<string>;
  get(hash: string): Promise<Buffer | undefined>;
}

/** Everything the gateway persists, behind one handle so main.ts opens and closes it once. */
/**
 * The replicas running on one shared store (PostgreSQL): each keeps a heartbeat row, and pending work
 * is stored with the id of the replica that owns it, so a sweep ends only the work of dead replicas.
 */
export interface ReplicaStore {
  /** This process's replica id (new at every start), stored with the pending work it creates. */
  readonly self: string;
  /** Records that this replica is alive at `at` (inserted on the first beat). */
  beat(at: string): Promise<void>;
  /** Ids of the replicas whose last heartbeat is at or after `since` (this one included once it beat). */
  alive(since: string): Promise<string[]>;
  /** Removes this replica's heartbeat (a clean stop): its leftover work is at once the others' to sweep. */
  leave(): Promise<void>;
}

export interface Storage {
  sessions: SessionStore;
  invocations: InvocationStore;
  cas: Cas;
  permissions: PermissionStore;
  projects: ProjectStore;
  settings: SettingsStore;
  /** Artifact plans and download jobs. */
  artifacts: ArtifactStore;
  extractions: ExtractionStore;
  /** The replicas sharing this store (PostgreSQL); absent when one process owns the store (embedded, memory). */
  replicas?: ReplicaStore;
  /** Writes a checkpoint and releases files. */
  close(): Promise<void>;
}

/** Persists Projects and their connector selections; every write is durable when the promise resolves. */
export interface ProjectStore {
  get(id: string): Promise<ProjectRecord | undefined>;
  /** Every Project, by id. */
  list(): Promise<ProjectRecord[]>;
  create(project: ProjectRecord): Promise<void>;
  /** Replaces the stored row of an existing Project. */
  update(project: ProjectRecord): Promise<void>;
}

/** Global settings; today the global connector selection (`null`: every enabled source). */
export interface SettingsStore {
  connectors(): Promise<string[] | null>;
  setConnectors(connectors: string[] | null): Promise<void>;
}

/** The saved custom MCP servers (`custom-mcp-servers.enc`); secrets stay encrypted at rest. */
export interface CustomServerStore {
  /** Reads every saved server; rejects with a clear message when the file cannot be decrypted. */
  load(): Promise<CustomServerConfig[]>;
  /** Replaces the saved set atomically; writes are queued, so the last call wins. */
  save(servers: CustomServerConfig[]): Promise<void>;
  /**
   * A store several replicas share: a value that changes whenever any of them saves a server or an
   * OAuth login, so each can tell when to load again. Absent when only this process writes the store.
   */
  changeToken?(): Promise<string>;
}

/**
 * One custom server's OAuth login as kept in `mcp-oauth.enc` (seed §5.5). The client information,
 * tokens and discovery state are the SDK's JSON, stored as it handed them over.
 */
export interface StoredOAuthLogin {
  /** The configuration signature the login was made under; another signature means it is stale. */
  signature: string;
  /** The callback URL the login used (a refresh and the next login reuse it). */
  redirectUri: string;
  /** The resource indicator the authorization server issued the tokens for. */
  resource?: string;
  clientInformation: Record<string, unknown>;
  tokens: Record<string, unknown>;
  discovery: Record<string, unknown>;
  /** When the access token expires, ms since the epoch; absent when the provider did not say. */
  expiresAt?: number;
}

/** Encrypted OAuth logins by custom server id; writes are queued and atomic, the last wins. */
export interface OAuthLoginStore {
  load(): Promise<Record<string, StoredOAuthLogin>>;
  /** Saves one server's login, or deletes it with `undefined`. */
  save(serverId: string, login: StoredOAuthLogin | undefined): Promise<void>;
}

/** The connector selection a Session effectively has (Session → Project → global), and its changes. */
export interface ConnectorSelectionReader {
  /** Source IDs the Session may use, or `null` for every enabled source. */
  effective(session: SessionRecord): Promise<string[] | null>;
  /** Subscribes to selection changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}
