import {
  GatewayError, type AuthorizationBasis, type GatewayEvent, type PermissionChannel, type PermissionGrantRecord, type PermissionRequestRecord,
  type PermissionStore, type SessionRecord,
} from '../core/index.js';
import type { WaitOutcome } from './pendingRequests.js';
import { expiredUnanswered } from './unansweredErrors.js';

/**
 * Decisions that cross replicas. The store (PostgreSQL) is the truth; events only say "look
 * again". A replica that holds a waiting action wakes on another replica's event and re-reads the
 * request from the store: the first decision written there (a conditional update) wins.
 */

/** How a request already ended in the store, as its waiter's outcome; undefined while it is still pending. */
export async function storedOutcome(store: PermissionStore, requestId: string): Promise<WaitOutcome | undefined> {
  const request = await store.getRequest(requestId);
  if (!request || request.status === 'pending') return undefined;
  if (request.authorizationId) {
    const authorizations = await store.listAuthorizations(request.sessionId);
    const authorization = authorizations.find((a) => a.id === request.authorizationId);
    if (authorization) return { authorization };
  }
  return { error: endedElsewhere(request) };
}

/** Why an action whose request another replica ended does not run, in the words the local paths use. */
function endedElsewhere(request: PermissionRequestRecord): GatewayError {
  if (request.status === 'expired') return expiredUnanswered(request, request.id, Date.parse(request.expiresAt) - Date.parse(request.createdAt));
  const details = { details: { sessionId: request.sessionId, requestId: request.id } };
  const how = request.resolvedVia ? ` (via ${request.resolvedVia})` : '';
  if (request.status === 'denied') return new GatewayError('permission_denied', `The user denied the call to ${request.toolName}${how}; do not retry this call.`, details);
  return new GatewayError('cancelled', `The permission request ${request.id} for ${request.toolName} was cancelled${how}; the action did not run.`, details);
}

/** Which waiting actions another replica's event releases, and on what basis. */
export interface ReplicaRelease {
  matches: (request: PermissionRequestRecord) => boolean;
  basis: AuthorizationBasis;
  via: PermissionChannel;
  epoch: number;
  grantId?: string;
}

/** A Grant made on another replica releases the matching actions here; so does a switch to always_allow. */
export function releaseFor(event: GatewayEvent): ReplicaRelease | undefined {
  if (event.type === 'grant.created') {
    const grant = event.data as PermissionGrantRecord;
    const matches = (r: PermissionRequestRecord) => r.sessionId === grant.sessionId && r.action === grant.action && r.resource === grant.resource;
    return { matches, basis: 'grant', via: 'grant', epoch: grant.epoch, grantId: grant.id };
  }
  if (event.type === 'session.updated') {
    const session = event.data as SessionRecord;
    if (session.approvalMode !== 'always_allow') return undefined;
    return { matches: (r) => r.sessionId === session.id, basis: 'always_allow', via: 'mode', epoch: session.permissionEpoch };
  }
  return undefined;
}

/** 409 for a decision on a request that another decision (here or on another replica) ended first. */
export function alreadyDecided(request: PermissionRequestRecord, epoch: number): GatewayError {
  const how = request.resolvedVia ? ` via ${request.resolvedVia}` : '';
  // A decision that lost a race to one still being written reads the request as pending.
  const message = request.status === 'pending'
    ? `Permission request ${request.id} is being decided by another decision; read the outcome with GET /api/sessions/${request.sessionId}/permission-requests.`
    : `Permission request ${request.id} was already decided (${request.status}${how}).`;
  return new GatewayError('conflict', message, {
    details: { epoch, status: request.status },
  });
}
