import {
  canonicalJson, type AuthorizationBasis, type PermissionAuthorizationRecord, type PermissionChannel, type PermissionRequestRecord,
  type PermissionRequestStatus, type PermissionResolution, type SessionRecord,
} from '../core/index.js';
import type { DangerousAction } from './dangerousActions.js';

/** Longest argument preview a human sees when deciding. */
const PREVIEW_CHARS = 2000;

/**
 * A new pending request for one action of one call. `scrub` takes configured secrets out of the
 * argument preview before it is cut: the preview is stored, listed and streamed to the admin page.
 */
export function newPermissionRequest(r: {
  id: string; session: SessionRecord; invocationId: string; toolName: string; action: DangerousAction; arguments: unknown;
  nowMs: number; approvalTimeoutMs: number; scrub: (text: string) => string;
}): PermissionRequestRecord {
  return {
    id: r.id, sessionId: r.session.id, projectId: r.session.projectId, invocationId: r.invocationId, toolName: r.toolName.slice(0, 200),
    action: r.action.action, resource: r.action.resource, argumentsPreview: r.scrub(canonicalJson(r.arguments)).slice(0, PREVIEW_CHARS),
    epoch: r.session.permissionEpoch, status: 'pending', resolution: null, resolvedVia: null, grantId: null, authorizationId: null,
    createdAt: new Date(r.nowMs).toISOString(), expiresAt: new Date(r.nowMs + r.approvalTimeoutMs).toISOString(), resolvedAt: null,
  };
}

/** How a request ended; the authorization (if any) names the Grant it rests on. */
export function resolutionOf(
  end: { status: PermissionRequestStatus; basis: AuthorizationBasis | null; via: PermissionChannel; at: string },
  authorization?: PermissionAuthorizationRecord,
): PermissionResolution {
  return {
    status: end.status, resolution: end.basis, resolvedVia: end.via, grantId: authorization?.grantId ?? null,
    authorizationId: authorization?.id ?? null, resolvedAt: end.at,
  };
}

/** What an authorization is for: one action of one call in one Session. */
export interface AuthorizationSubject {
  sessionId: string;
  invocationId: string;
  action: string;
  resource: string;
}

export function newAuthorization(a: {
  id: string; subject: AuthorizationSubject; requestId: string | null; grantId?: string; epoch: number;
  basis: AuthorizationBasis; via: PermissionChannel; allowed?: boolean; at: string;
}): PermissionAuthorizationRecord {
  const { sessionId, invocationId, action, resource } = a.subject;
  return {
    id: a.id, sessionId, invocationId, requestId: a.requestId, grantId: a.grantId ?? null, action, resource,
    basis: a.basis, allowed: a.allowed ?? true, via: a.via, epoch: a.epoch, createdAt: a.at,
  };
}

/** Same Session, action and resource: what a Grant matches. */
export function sameAction(a: PermissionRequestRecord, b: PermissionRequestRecord): boolean {
  return a.sessionId === b.sessionId && a.action === b.action && a.resource === b.resource;
}
