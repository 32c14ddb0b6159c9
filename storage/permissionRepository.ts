import type {
  AuthorizationBasis, PermissionAuthorizationRecord, PermissionChannel, PermissionGrantRecord, PermissionRequestRecord,
  PermissionRequestStatus, PermissionResolution, PermissionStore,
} from '../gateway/core/index.js';
import { flag, integer, nullableText, nullableTextAs, rowMapper, text, textAs } from './rowMapper.js';
import { ownerNotAlive, withOwner } from './replicaRepository.js';
import type { SqlExecutor } from './sqlExecutor.js';

const requests = rowMapper<PermissionRequestRecord>('permission_requests', {
  id: text,
  sessionId: text,
  projectId: text,
  invocationId: text,
  toolName: text,
  action: text,
  resource: text,
  argumentsPreview: text,
  epoch: integer,
  status: textAs<PermissionRequestStatus>(),
  resolution: nullableTextAs<AuthorizationBasis>(),
  resolvedVia: nullableTextAs<PermissionChannel>(),
  grantId: nullableText,
  authorizationId: nullableText,
  createdAt: text,
  expiresAt: text,
  resolvedAt: nullableText,
});
const insertOwnedRequest = withOwner(requests.insertSql);

const grants = rowMapper<PermissionGrantRecord>('permission_grants', {
  id: text,
  sessionId: text,
  action: text,
  resource: text,
  requestId: text,
  epoch: integer,
  createdAt: text,
  revokedAt: nullableText,
});

/** The `permission_authorizations` table's mapping (also used to copy the audit log's authorizations into PostgreSQL). */
export const authorizationRows = rowMapper<PermissionAuthorizationRecord>('permission_authorizations', {
  id: text,
  sessionId: text,
  invocationId: text,
  requestId: nullableText,
  grantId: nullableText,
  action: text,
  resource: text,
  basis: textAs<AuthorizationBasis>(),
  allowed: flag,
  via: textAs<PermissionChannel>(),
  epoch: integer,
  createdAt: text,
});

/** PermissionRequests, Grants and Authorizations in a SQL database (embedded or PostgreSQL) (migration 002). */
export class PermissionRepository implements PermissionStore {
  /** `owner`: this process's replica id, stored with every request it adds (null: one process owns the store). */
  constructor(private readonly db: SqlExecutor, private readonly owner: string | null = null) {}

  async addRequest(request: PermissionRequestRecord): Promise<void> {
    await this.db.write(insertOwnedRequest, [...requests.toParams(request), this.owner]);
  }

  async resolveRequest(id: string, r: PermissionResolution): Promise<boolean> {
    // A conditional update: the changed-row count, not an earlier read, decides who won.
    const changed = await this.db.write(
      `UPDATE permission_requests SET status = ?, resolution = ?, resolved_via = ?, grant_id = ?, authorization_id = ?, resolved_at = ?
       WHERE id = ? AND status = 'pending'`,
      [r.status, r.resolution, r.resolvedVia, r.grantId, r.authorizationId, r.resolvedAt, id],
    );
    return changed === 1;
  }

  async getRequest(id: string): Promise<PermissionRequestRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM permission_requests WHERE id = ?', [id]))[0];
    return row ? requests.fromRow(row) : undefined;
  }

  async listRequests(sessionId: string, options: { status?: PermissionRequestStatus } = {}): Promise<PermissionRequestRecord[]> {
    const [where, params] = options.status ? [' AND status = ?', [options.status]] : ['', []];
    return (await this.db.all(`SELECT * FROM permission_requests WHERE session_id = ?${where} ORDER BY created_at, rowid`, [sessionId, ...params]))
      .map(requests.fromRow);
  }

  orphanPending(at: string, alive?: readonly string[]): Promise<number> {
    const [owners, params] = ownerNotAlive(alive);
    return this.db.write(
      `UPDATE permission_requests SET status = 'orphaned', resolved_via = 'startup', resolved_at = ? WHERE status = 'pending'${owners}`,
      [at, ...params],
    );
  }

  async addGrant(grant: PermissionGrantRecord): Promise<void> {
    await this.db.write(grants.insertSql, grants.toParams(grant));
  }

  async getGrant(id: string): Promise<PermissionGrantRecord | undefined> {
    const row = (await this.db.all('SELECT * FROM permission_grants WHERE id = ?', [id]))[0];
    return row ? grants.fromRow(row) : undefined;
  }

  async findGrant(sessionId: string, action: string, resource: string): Promise<PermissionGrantRecord | undefined> {
    const row = (await this.db.all(
      'SELECT * FROM permission_grants WHERE session_id = ? AND action = ? AND resource = ? AND revoked_at IS NULL ORDER BY created_at, rowid LIMIT 1',
      [sessionId, action, resource],
    ))[0];
    return row ? grants.fromRow(row) : undefined;
  }

  async listGrants(sessionId: string): Promise<PermissionGrantRecord[]> {
    return (await this.db.all('SELECT * FROM permission_grants WHERE session_id = ? ORDER BY created_at, rowid', [sessionId])).map(grants.fromRow);
  }

  async revokeGrant(id: string, at: string): Promise<boolean> {
    const changed = await this.db.write('UPDATE permission_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
    return changed === 1;
  }

  async addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void> {
    await this.db.write(authorizationRows.insertSql, authorizationRows.toParams(authorization));
  }

  async listAuthorizations(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    return (await this.db.all('SELECT * FROM permission_authorizations WHERE session_id = ? ORDER BY created_at, rowid', [sessionId]))
      .map(authorizationRows.fromRow);
  }
}
