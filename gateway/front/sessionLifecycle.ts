import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Clock, Logger, SessionRecord, SessionStore } from '../core/index.js';

export interface SessionStart {
  id: string;
  projectId: string;
  transport: SessionRecord['transport'];
}

/** What persisting and ending a Session needs. */
export interface SessionLifecycleDeps {
  sessions: SessionStore;
  clock: Clock;
  log: Logger;
}

/**
 * Persists the Session of an initialized client (its name and version are known then). Never
 * rejects: a failure is logged, and the session's later requests answer `not_found`.
 */
export async function persistSession(server: Server, start: SessionStart, deps: SessionLifecycleDeps): Promise<void> {
  const client = server.getClientVersion();
  const record: SessionRecord = {
    ...start,
    clientName: client?.name?.slice(0, 200) ?? null,
    clientVersion: client?.version?.slice(0, 100) ?? null,
    approvalMode: 'ask_for_dangerous',
    permissionEpoch: 0,
    connectors: null,
    createdAt: new Date(deps.clock.now()).toISOString(),
    endedAt: null,
  };
  try {
    await deps.sessions.create(record);
    deps.log.info({ sessionId: start.id, projectId: start.projectId, client: record.clientName }, 'session started');
  } catch (error) {
    deps.log.error({ err: error, sessionId: start.id }, 'could not persist the session');
  }
}

/** Marks the Session ended (idempotent). */
export async function endSession(id: string, deps: SessionLifecycleDeps): Promise<void> {
  if (!(await deps.sessions.get(id))) return;
  await deps.sessions.end(id, new Date(deps.clock.now()).toISOString());
  deps.log.info({ sessionId: id }, 'session ended');
}
