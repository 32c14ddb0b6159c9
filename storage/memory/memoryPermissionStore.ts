import type {
  PermissionAuthorizationRecord, PermissionGrantRecord, PermissionRequestRecord, PermissionRequestStatus, PermissionResolution,
  PermissionStore,
} from '../../gateway/core/index.js';
import { byKey, copy, duplicateKey } from './memoryRows.js';

/** PermissionRequests, Grants and Authorizations in memory, with the embedded store's semantics. */
export class MemoryPermissionStore implements PermissionStore {
  protected readonly requestsById = new Map<string, PermissionRequestRecord>();
  protected readonly grantsById = new Map<string, PermissionGrantRecord>();
  protected readonly authorizationsById = new Map<string, PermissionAuthorizationRecord>();

  async addRequest(request: PermissionRequestRecord): Promise<void> {
    insert(this.requestsById, 'permission_requests', request);
  }

  async resolveRequest(id: string, resolution: PermissionResolution): Promise<boolean> {
    // The memory form of `UPDATE … WHERE id = ? AND status = 'pending'`: test and set with no await between.
    const request = this.requestsById.get(id);
    if (request?.status !== 'pending') return false;
    Object.assign(request, copy(resolution));
    return true;
  }

  async getRequest(id: string): Promise<PermissionRequestRecord | undefined> {
    const request = this.requestsById.get(id);
    return request && copy(request);
  }

  async listRequests(sessionId: string, options: { status?: PermissionRequestStatus } = {}): Promise<PermissionRequestRecord[]> {
    const own = [...this.requestsById.values()].filter((r) => r.sessionId === sessionId && (!options.status || r.status === options.status));
    return byKey(own, (r) => r.createdAt).map(copy);
  }

  async orphanPending(at: string): Promise<number> {
    const pending = [...this.requestsById.values()].filter((r) => r.status === 'pending');
    for (const r of pending) Object.assign(r, { status: 'orphaned', resolvedVia: 'startup', resolvedAt: at });
    return pending.length;
  }

  async addGrant(grant: PermissionGrantRecord): Promise<void> {
    insert(this.grantsById, 'permission_grants', grant);
  }

  async getGrant(id: string): Promise<PermissionGrantRecord | undefined> {
    const grant = this.grantsById.get(id);
    return grant && copy(grant);
  }

  async findGrant(sessionId: string, action: string, resource: string): Promise<PermissionGrantRecord | undefined> {
    const matching = [...this.grantsById.values()].filter(
      (g) => g.sessionId === sessionId && g.action === action && g.resource === resource && g.revokedAt === null,
    );
    const first = byKey(matching, (g) => g.createdAt)[0];
    return first && copy(first);
  }

  async listGrants(sessionId: string): Promise<PermissionGrantRecord[]> {
    return byKey([...this.grantsById.values()].filter((g) => g.sessionId === sessionId), (g) => g.createdAt).map(copy);
  }

  async revokeGrant(id: string, at: string): Promise<boolean> {
    const grant = this.grantsById.get(id);
    if (!grant || grant.revokedAt !== null) return false;
    grant.revokedAt = at;
    return true;
  }

  async addAuthorization(authorization: PermissionAuthorizationRecord): Promise<void> {
    insert(this.authorizationsById, 'permission_authorizations', authorization);
  }

  async listAuthorizations(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    return byKey([...this.authorizationsById.values()].filter((a) => a.sessionId === sessionId), (a) => a.createdAt).map(copy);
  }
}

function insert<T extends { id: string }>(table: Map<string, T>, name: string, record: T): void {
  if (table.has(record.id)) throw duplicateKey(name, record.id);
  table.set(record.id, copy(record));
}
