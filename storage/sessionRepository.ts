import type { SqlValue } from 'sql.js';
import type { ApprovalMode, SessionRecord, SessionStore } from '../gateway/core/index.js';
import type { SqlDatabase } from './sqlDatabase.js';

/** Sessions in the embedded database. */
export class SessionRepository implements SessionStore {
  constructor(private readonly db: SqlDatabase) {}

  create(s: SessionRecord): Promise<void> {
    return this.db.write(
      `INSERT INTO sessions (id, project_id, transport, client_name, client_version, approval_mode, connectors, created_at, ended_at, permission_epoch)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.id,
        s.projectId,
        s.transport,
        s.clientName,
        s.clientVersion,
        s.approvalMode,
        s.connectors === null ? null : JSON.stringify(s.connectors),
        s.createdAt,
        s.endedAt,
        s.permissionEpoch,
      ],
    );
  }

  end(id: string, endedAt: string): Promise<void> {
    return this.db.write('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL', [endedAt, id]);
  }

  setConnectors(id: string, connectors: string[] | null): Promise<void> {
    return this.db.write('UPDATE sessions SET connectors = ? WHERE id = ?', [connectors === null ? null : JSON.stringify(connectors), id]);
  }

  async setApprovalMode(id: string, mode: ApprovalMode): Promise<SessionRecord> {
    await this.db.write(
      'UPDATE sessions SET approval_mode = ?, permission_epoch = permission_epoch + 1 WHERE id = ? AND approval_mode <> ?',
      [mode, id, mode],
    );
    const session = this.get(id);
    if (!session) throw new Error(`session ${id} does not exist`);
    return session;
  }

  get(id: string): SessionRecord | undefined {
    const row = this.db.all('SELECT * FROM sessions WHERE id = ?', [id])[0];
    return row ? toSession(row) : undefined;
  }

  list(): SessionRecord[] {
    return this.db.all('SELECT * FROM sessions ORDER BY created_at DESC, id').map(toSession);
  }
}

function toSession(row: Record<string, SqlValue>): SessionRecord {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    transport: row.transport === 'stdio' ? 'stdio' : 'http',
    clientName: row.client_name === null ? null : String(row.client_name),
    clientVersion: row.client_version === null ? null : String(row.client_version),
    approvalMode: toApprovalMode(row.approval_mode),
    permissionEpoch: Number(row.permission_epoch ?? 0),
    connectors: row.connectors === null ? null : (JSON.parse(String(row.connectors)) as string[]),
    createdAt: String(row.created_at),
    endedAt: row.ended_at === null ? null : String(row.ended_at),
  };
}

/** `never_ask` was a short-lived name for `always_allow` (seed §11). */
function toApprovalMode(value: SqlValue | undefined): ApprovalMode {
  return value === 'always_allow' || value === 'never_ask' ? 'always_allow' : 'ask_for_dangerous';
}
