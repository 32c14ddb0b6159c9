import type {
  ArtifactPlanPatch, ArtifactPlanRecord, DownloadJobPatch, DownloadJobRecord, DownloadJobState,
} from './artifactRecords.js';

/** Persists ArtifactPlans and DownloadJobs; every write is durable (journaled) when the promise resolves. */
export interface ArtifactStore {
  addPlan(plan: ArtifactPlanRecord): Promise<void>;
  /** Records the plan's decision; false when the plan is unknown. */
  decidePlan(id: string, patch: ArtifactPlanPatch): Promise<boolean>;
  getPlan(id: string): Promise<ArtifactPlanRecord | undefined>;
  /** The Session's plans in creation order. */
  listPlans(sessionId: string): Promise<ArtifactPlanRecord[]>;
  addJob(job: DownloadJobRecord): Promise<void>;
  /** One transition (or progress); resolves with the updated job, undefined when unknown. */
  updateJob(id: string, patch: DownloadJobPatch): Promise<DownloadJobRecord | undefined>;
  getJob(id: string): Promise<DownloadJobRecord | undefined>;
  /** The Session's jobs in creation order. */
  listJobs(sessionId: string): Promise<DownloadJobRecord[]>;
  /**
   * Every job (any Session) in one of `states`, in creation order: start-up finds interrupted jobs with
   * it. With `alive`, only jobs whose owner replica is not in it (the others' running jobs stay theirs).
   */
  listJobsIn(states: readonly DownloadJobState[], alive?: readonly string[]): Promise<DownloadJobRecord[]>;
}

/** A completed (or uploaded) file of a Session workspace. */
export interface WorkspaceFile {
  /** Session-relative, `/`-separated. */
  path: string;
  sizeBytes: number;
  modifiedAt: string;
}

/** The `<final>.part` file a download streams into; bounded memory: one chunk at a time. */
export interface PartialFile {
  /** Bytes in the part file now (the resume offset). */
  readonly sizeBytes: number;
  /** The bytes already in the part file, from its start, in chunks (re-hashed before a resume). */
  existing(): AsyncIterable<Uint8Array>;
  /** Appends one chunk. */
  write(chunk: Uint8Array): Promise<void>;
  /** The open descriptor (read-write), for a writer on another thread that appends at `sizeBytes`… */
  readonly fd: number;
  /** …and then reports how many bytes it appended. */
  appended(bytes: number): void;
  /** Keeps the first `sizeBytes` bytes (0: start over, when a server ignored the Range). */
  truncate(sizeBytes: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Longest name (one path segment) of a workspace file or folder, in UTF-8 bytes: file systems count
 * a name's bytes (NAME_MAX, 255), not its characters, and a file being written carries `.part` besides.
 */
export const MAX_WORKSPACE_NAME_BYTES = 255 - '.part'.length;

/**
 * One directory per Session (`workspaces/<sessionId>/`, mode 0700). Every path is Session-relative;
 * absolute paths, `..`, NUL, hidden names and symlink escapes (checked on the real path when a file
 * is opened) are refused with `invalid_input`. Completed files are read-only (0400) and immutable.
 */
export interface SessionWorkspace {
  /** The path normalized (`a//b` → `a/b`), or `invalid_input` naming the rule it breaks. */
  checkPath(relative: string): string;
  /** `relative` if nothing (completed or partial) is there, else the first free `name-N.ext`. */
  freePath(sessionId: string, relative: string): Promise<string>;
  /** Opens (creating parents 0700) `<relative>.part` for appending; `conflict` when the completed file exists. */
  openPartial(sessionId: string, relative: string): Promise<PartialFile>;
  /** Size of `<relative>.part`, or undefined when there is none. */
  partialSize(sessionId: string, relative: string): Promise<number | undefined>;
  discardPartial(sessionId: string, relative: string): Promise<void>;
  /** fsync, atomic rename to the final name, 0400, directory fsync; `conflict` when the final name is taken. */
  commitPartial(sessionId: string, relative: string): Promise<WorkspaceFile>;
  /** Writes a whole new file (upload, extraction output) through a temp file of its own, never over an existing one (`conflict`); `request_too_large` past `maxBytes`. */
  writeFile(sessionId: string, relative: string, source: AsyncIterable<Uint8Array>, options: { maxBytes: number }): Promise<WorkspaceFile>;
  /** At start-up, without replicas: removes what writes a stopped gateway left unfinished; resolves with how many. */
  removeUnfinishedWrites(): Promise<number>;
  /** The completed file, or undefined. */
  stat(sessionId: string, relative: string): Promise<WorkspaceFile | undefined>;
  /** Every completed file of the Session (no part files), by path. */
  list(sessionId: string): Promise<WorkspaceFile[]>;
  /** Up to `length` bytes from `offset` of a completed file. */
  read(sessionId: string, relative: string, range: { offset: number; length: number }): Promise<Buffer>;
  /** The absolute path of the Session's workspace directory (what an upstream asking for roots is given). */
  rootPath(sessionId: string): string;
  /** The file's real absolute path, after the symlink check (for a worker that opens it itself). */
  realPath(sessionId: string, relative: string): Promise<string>;
}
