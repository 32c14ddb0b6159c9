import type { SqlValue } from 'sql.js';
import type { ApprovalMode, SessionRecord, SessionStore } from '../gateway/core/index.js';
import { idList, integer, nullableText, oneOf, rowMapper, text, type Column } from './rowMapper.js';
import type { SqlExecutor } from './sqlExecutor.js';

/** `never_ask` was a short-lived name for `always_allow` (seed §11). */
const approvalMode: Column<ApprovalMode> = {
  toSql: (v) => v,
  fromSql: (v: SqlValue | undefined) => (v === 'always_allow' || v === 'never_ask' ? 'always_allow' : 'ask_for_dangerous'),
};

const sessions = rowMapper<SessionRecord>('sessions', {
  id: text,
  projectId: text,
  transport: oneOf(['http', 'stdio'], 'http'),
  clientName: nullableText,
  clientVersion: nullableText,
  approvalMode,
  permissionEpoch: integer,
  connectors: idList,
  createdAt: text,
  endedAt: nullableText,
});

/** Sessions in a SQL database (embedded or PostgreSQL). */
export class SessionRepository implements SessionStore {
  constructor(private readonly db: SqlExecutor) {}

  async create(session: SessionRecord): Promise<void> {
    await this.db.write(sessions.insertSql, sessions.toParams(session));
  }

  async end(id: string, endedAt: string): Promise<void> {
    await this.db.write('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL', [endedAt, id]);
  }

  endAllOpen(endedAt: string): Promise<number> {
    return this.db.write('UPDATE sessions SET ended_at = ? WHERE ended_at IS NULL', [endedAt]);
  }

  async setConnectors(id: string, connectors: string[] | null): Promise<void> {
    await this.db.write('UPDATE sessions SET connectors = ? WHERE id = ?', [idList.toSql(connectors), id]);
  }

  async setApprovalMode(id: string, mode: ApprovalMode): Promise<SessionRecord> {
    await this.db.write(
      'UPDATE sessions SET approval_mode = ?, permission_epoch = permission_epoch + 1 WHERE id = ? AND approval_mode <> ?',
      [mode, id, mode],
    );
    const session = await this.get(id);
    if (!session) throw new Error(`session ${id} does not exist`);
    return session;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM sessions WHERE id = ?', [id]))[0];
    return row ? sessions.fromRow(row) : undefined;
  }

  async list(): Promise<SessionRecord[]> {
    return (await this.db.all('SELECT * FROM sessions ORDER BY created_at DESC, id')).map(sessions.fromRow);
  }
}
