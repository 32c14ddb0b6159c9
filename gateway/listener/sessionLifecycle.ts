import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Clock, Logger, SessionRecord, SessionStore } from '../core/index.js';

export interface SessionStart {
  id: string;
  projectId: string;
  transport: SessionRecord['transport'];
}

/** Persists the Session once the client has initialized (its name and version are known then). */
export function persistSessionOnInitialize(
  server: Server,
  start: SessionStart,
  deps: { sessions: SessionStore; clock: Clock; log: Logger },
): void {
  server.oninitialized = () => {
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
    deps.sessions.create(record).then(
      () => deps.log.info({ sessionId: start.id, projectId: start.projectId, client: record.clientName }, 'session started'),
      (error: unknown) => deps.log.error({ err: error, sessionId: start.id }, 'could not persist the session'),
    );
  };
}

/** Marks the Session ended (idempotent). */
export async function endSession(id: string, deps: { sessions: SessionStore; clock: Clock; log: Logger }): Promise<void> {
  if (!(await deps.sessions.get(id))) return;
  await deps.sessions.end(id, new Date(deps.clock.now()).toISOString());
  deps.log.info({ sessionId: id }, 'session ended');
}
