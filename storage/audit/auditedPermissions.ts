import type { PermissionAuthorizationRecord } from '../../gateway/core/index.js';
import { PermissionRepository } from '../permissionRepository.js';
import type { SqlExecutor } from '../sqlExecutor.js';
import type { AuditLog } from './auditLog.js';

/**
 * The embedded PermissionStore: requests, Grants and decided authorizations in the database; an
 * authorization made without a PermissionRequest (always_allow, a Grant hit, an Inspector call),
 * which every such dangerous call makes, in the audit log beside the call's own records: one
 * group-committed line instead of a sql.js row with a journal fsync of its own, and a database
 * (and its checkpoints) that no longer grows with every call. Both are listed together.
 */
export class AuditedPermissionRepository extends PermissionRepository {
  constructor(
    db: SqlExecutor,
    private readonly audit: AuditLog,
  ) {
    super(db);
  }

  override addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void> {
    return authorization.requestId === null ? this.audit.authorize(authorization) : super.addAuthorization(authorization);
  }

  /** Both places' authorizations by creation time (a stable sort: within a tie, the database's come first). */
  override async listAuthorizations(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    const [decided, automatic] = await Promise.all([super.listAuthorizations(sessionId), this.audit.authorizationsOf(sessionId)]);
    return [...decided, ...automatic].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }
}
