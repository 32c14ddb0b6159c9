import type { InvocationRecord, SessionRecord } from './records.js';

/** Persists Sessions; every write is durable when the promise resolves. */
export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  end(id: string, endedAt: string): Promise<void>;
  get(id: string): SessionRecord | undefined;
  list(): SessionRecord[];
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
  /** Writes a checkpoint and releases files. */
  close(): Promise<void>;
}
