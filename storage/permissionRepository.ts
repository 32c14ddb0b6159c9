import type { SqlValue } from 'sql.js';
import type {
  PermissionAuthorizationRecord, PermissionGrantRecord, PermissionRequestRecord, PermissionRequestStatus, PermissionResolution,
  PermissionStore,
} from '../gateway/core/index.js';
import type { SqlDatabase, SqlParam } from './sqlDatabase.js';

type Row = Record<string, SqlValue>;

/** camelCase record field → snake_case column, for the columns that are stored as they are. */
const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const REQUEST_FIELDS = [
  'id', 'sessionId', 'projectId', 'invocationId', 'toolName', 'action', 'resource', 'argumentsPreview', 'epoch', 'status',
  'resolution', 'resolvedVia', 'grantId', 'authorizationId', 'createdAt', 'expiresAt', 'resolvedAt',
] as const;
const GRANT_FIELDS = ['id', 'sessionId', 'action', 'resource', 'requestId', 'epoch', 'createdAt', 'revokedAt'] as const;
const AUTHORIZATION_FIELDS = [
  'id', 'sessionId', 'invocationId', 'requestId', 'grantId', 'action', 'resource', 'basis', 'allowed', 'via', 'epoch', 'createdAt',
] as const;

/** PermissionRequests, Grants and Authorizations in the embedded database (migration 002). */
export class PermissionRepository implements PermissionStore {
  constructor(private readonly db: SqlDatabase) {}

  addRequest(request: PermissionRequestRecord): Promise<void> {
    return this.insert('permission_requests', REQUEST_FIELDS, request);
  }

  async resolveRequest(id: string, r: PermissionResolution): Promise<boolean> {
    // The check and the update run in one synchronous step, so two resolvers cannot both win.
    if (this.getRequest(id)?.status !== 'pending') return false;
    await this.db.write(
      `UPDATE permission_requests SET status = ?, resolution = ?, resolved_via = ?, grant_id = ?, authorization_id = ?, resolved_at = ?
       WHERE id = ? AND status = 'pending'`,
      [r.status, r.resolution, r.resolvedVia, r.grantId, r.authorizationId, r.resolvedAt, id],
    );
    return true;
  }

  getRequest(id: string): PermissionRequestRecord | undefined {
    const row = this.db.all('SELECT * FROM permission_requests WHERE id = ?', [id])[0];
    return row ? toRequest(row) : undefined;
  }

  listRequests(sessionId: string, options: { status?: PermissionRequestStatus } = {}): PermissionRequestRecord[] {
    const [where, params] = options.status ? [' AND status = ?', [options.status]] : ['', []];
    return this.db
      .all(`SELECT * FROM permission_requests WHERE session_id = ?${where} ORDER BY created_at, rowid`, [sessionId, ...params])
      .map(toRequest);
  }

  async orphanPending(at: string): Promise<number> {
    const count = Number(this.db.all("SELECT COUNT(*) AS n FROM permission_requests WHERE status = 'pending'")[0]?.n ?? 0);
    if (count === 0) return 0;
    await this.db.write(
      "UPDATE permission_requests SET status = 'orphaned', resolved_via = 'startup', resolved_at = ? WHERE status = 'pending'",
      [at],
    );
    return count;
  }

  addGrant(grant: PermissionGrantRecord): Promise<void> {
    return this.insert('permission_grants', GRANT_FIELDS, grant);
  }

  getGrant(id: string): PermissionGrantRecord | undefined {
    const row = this.db.all('SELECT * FROM permission_grants WHERE id = ?', [id])[0];
    return row ? toGrant(row) : undefined;
  }

  findGrant(sessionId: string, action: string, resource: string): PermissionGrantRecord | undefined {
    const row = this.db.all(
      'SELECT * FROM permission_grants WHERE session_id = ? AND action = ? AND resource = ? AND revoked_at IS NULL ORDER BY created_at LIMIT 1',
      [sessionId, action, resource],
    )[0];
    return row ? toGrant(row) : undefined;
  }

  listGrants(sessionId: string): PermissionGrantRecord[] {
    return this.db.all('SELECT * FROM permission_grants WHERE session_id = ? ORDER BY created_at, rowid', [sessionId]).map(toGrant);
  }

  async revokeGrant(id: string, at: string): Promise<boolean> {
    const grant = this.getGrant(id);
    if (!grant || grant.revokedAt !== null) return false;
    await this.db.write('UPDATE permission_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
    return true;
  }

  addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void> {
    return this.insert('permission_authorizations', AUTHORIZATION_FIELDS, { ...authorization, allowed: Number(authorization.allowed) });
  }

  listAuthorizations(sessionId: string): PermissionAuthorizationRecord[] {
    return this.db
      .all('SELECT * FROM permission_authorizations WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])
      .map(toAuthorization);
  }

  private insert(table: string, fields: readonly string[], record: object): Promise<void> {
    const values = fields.map((f) => (record as Record<string, SqlParam>)[f] ?? null);
    return this.db.write(
      `INSERT INTO ${table} (${fields.map(snake).join(', ')}) VALUES (${fields.map(() => '?').join(', ')})`,
      values,
    );
  }
}

function fromRow<T>(row: Row, fields: readonly string[], numeric: readonly string[] = []): T {
  const record: Record<string, unknown> = {};
  for (const field of fields) {
    const value = row[snake(field)] ?? null;
    record[field] = value === null ? null : numeric.includes(field) ? Number(value) : String(value);
  }
  return record as T;
}

function toRequest(row: Row): PermissionRequestRecord {
  return fromRow(row, REQUEST_FIELDS, ['epoch']);
}

function toGrant(row: Row): PermissionGrantRecord {
  return fromRow(row, GRANT_FIELDS, ['epoch']);
}

function toAuthorization(row: Row): PermissionAuthorizationRecord {
  const record = fromRow<PermissionAuthorizationRecord & { allowed: unknown }>(row, AUTHORIZATION_FIELDS, ['epoch', 'allowed']);
  return { ...record, allowed: Boolean(record.allowed) };
}
