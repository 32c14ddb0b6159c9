import {
  withFields, type AuthorizationBasis, type Clock, type Logger, type NewId, type PermissionAuthorizationRecord, type PermissionChannel,
  type PermissionDecision, type PermissionGrantRecord, type PermissionRequestRecord, type PermissionRequestStatus, type PermissionResolution,
  type PermissionStore,
} from '../core/index.js';
import type { Resolved } from './finishWaiters.js';
import type { Waiter } from './pendingRequests.js';
import { newAuthorization, resolutionOf } from './permissionRecords.js';

/**
 * Writes what a decision rests on (authorizations, a Grant) before its requests are resolved.
 * Apart from the gate, which decides who is released and when, so the order of these writes,
 * which decides what a failed write leaves behind, reads in one place.
 */
export class DecisionWrites {
  constructor(private readonly deps: { store: PermissionStore; clock: Clock; newId: NewId }) {}

  /** A human's allow_once or deny for one waiting action. */
  async one(waiter: Waiter, decision: PermissionDecision, via: PermissionChannel, epoch: number): Promise<Resolved> {
    return this.authorized(waiter, { epoch, basis: decision, via, allowed: decision !== 'deny' });
  }

  /** One authorization per action a mode switch or another replica's Grant releases. */
  async each(waiters: Waiter[], r: { basis: AuthorizationBasis; via: PermissionChannel; epoch: number; grantId?: string }): Promise<Resolved[]> {
    const resolved: Resolved[] = [];
    for (const waiter of waiters) resolved.push(await this.authorized(waiter, r));
    return resolved;
  }

  newGrant(request: PermissionRequestRecord, epoch: number): PermissionGrantRecord {
    const { sessionId, action, resource, id: requestId } = request;
    return { id: this.deps.newId('grt'), sessionId, action, resource, requestId, epoch, createdAt: this.nowIso(), revokedAt: null };
  }

  /**
   * One authorization per released action (the decided one and every matching one), then the Grant
   * they name: written last, so a decision whose writes fail leaves no Grant in force.
   */
  async allowMatching(first: Waiter, others: Waiter[], via: PermissionChannel, grant: PermissionGrantRecord): Promise<Resolved[]> {
    const resolved = [await this.authorized(first, { epoch: grant.epoch, basis: 'allow_matching', via, grantId: grant.id })];
    resolved.push(...(await this.each(others, { epoch: grant.epoch, basis: 'grant', via: 'grant', grantId: grant.id })));
    await this.deps.store.addGrant(grant);
    return resolved;
  }

  /** Writes one waiting action's authorization; its request is resolved as the authorization says. */
  private async authorized(
    waiter: Waiter,
    r: { basis: AuthorizationBasis; via: PermissionChannel; epoch: number; grantId?: string; allowed?: boolean },
  ): Promise<Resolved> {
    const authorization = await this.append(withFields(r, { subject: waiter.request, requestId: waiter.request.id }));
    return [waiter, this.resolution(authorization.allowed ? 'allowed' : 'denied', r.basis, r.via, authorization), { authorization }];
  }

  /**
   * Revokes the Grant of an allow_matching decision that failed after writing it, unless its request
   * was resolved with it after all (the decision stands); true when the Grant stands.
   */
  async keepGrantIfDecided(grant: PermissionGrantRecord, log: Logger): Promise<boolean> {
    const request = await this.deps.store.getRequest(grant.requestId).catch(() => undefined);
    if (request?.status === 'allowed' && request.grantId === grant.id) return true;
    await this.deps.store.revokeGrant(grant.id, this.nowIso()).catch((error: unknown) =>
      log.error({ err: error, grantId: grant.id }, 'could not revoke the Grant of an allow_matching decision that failed; revoke it by hand'),
    );
    return false;
  }

  resolution(
    status: PermissionRequestStatus,
    basis: AuthorizationBasis | null,
    via: PermissionChannel,
    authorization?: PermissionAuthorizationRecord,
  ): PermissionResolution {
    return resolutionOf({ status, basis, via, at: this.nowIso() }, authorization);
  }

  /** Appends one authorization; resolves once it is durable, or at once when `onDurable` takes the write. */
  async append(
    a: Omit<Parameters<typeof newAuthorization>[0], 'id' | 'at'>,
    onDurable?: (write: Promise<void>) => void,
  ): Promise<PermissionAuthorizationRecord> {
    const record = newAuthorization(withFields(a, { id: this.deps.newId('pauth'), at: this.nowIso() }));
    const write = this.deps.store.addAuthorization(record);
    if (onDurable) onDurable(write);
    else await write;
    return record;
  }

  nowIso(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
