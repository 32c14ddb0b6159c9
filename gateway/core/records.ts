/** Session approval modes (seed §8); `never_ask` from older data migrates to `always_allow`. */
export type ApprovalMode = 'ask_for_dangerous' | 'always_allow';

/** One MCP session of one client, persisted for audit. */
export interface SessionRecord {
  id: string;
  projectId: string;
  transport: 'http' | 'stdio';
  clientName: string | null;
  clientVersion: string | null;
  approvalMode: ApprovalMode;
  /** Rotated on every approval-mode change; a decision made for an older epoch gets 409. */
  permissionEpoch: number;
  /** Connector selection: `null` inherits the project's / global selection. */
  connectors: string[] | null;
  createdAt: string;
  endedAt: string | null;
}

/** A human's answer to a PermissionRequest (seed §8, GATEWAY.md §7). */
export type PermissionDecision = 'allow_once' | 'allow_matching' | 'deny';

/** What an authorization rests on: a human decision, an existing Grant, or the always_allow mode. */
export type AuthorizationBasis = PermissionDecision | 'grant' | 'always_allow';

export type PermissionRequestStatus = 'pending' | 'allowed' | 'denied' | 'expired' | 'cancelled' | 'orphaned';

/** Where a request was resolved: admin API, the agent's client (elicitation), a Grant, a mode switch, … */
export type PermissionChannel =
  | 'admin' | 'elicitation' | 'inspector' | 'grant' | 'mode' | 'timeout' | 'client' | 'session_end' | 'startup';

/** One dangerous action waiting for (or resolved by) a human; one per action, decided independently. */
export interface PermissionRequestRecord {
  id: string;
  sessionId: string;
  projectId: string;
  invocationId: string;
  toolName: string;
  /** Normalized action and resource (see gateway/permissions/dangerousActions.ts). */
  action: string;
  resource: string;
  /** The call's arguments as canonical JSON, cut to a readable length, for the human who decides. */
  argumentsPreview: string;
  /** The Session's permission epoch when the request was made. */
  epoch: number;
  status: PermissionRequestStatus;
  resolution: AuthorizationBasis | null;
  resolvedVia: PermissionChannel | null;
  grantId: string | null;
  authorizationId: string | null;
  createdAt: string;
  /** When the approval timeout expires it (`permission_expired`). */
  expiresAt: string;
  resolvedAt: string | null;
}

/** A reusable, revocable Session capability for one normalized action and resource (allow_matching). */
export interface PermissionGrantRecord {
  id: string;
  sessionId: string;
  action: string;
  resource: string;
  /** The request whose allow_matching decision created it. */
  requestId: string;
  epoch: number;
  createdAt: string;
  revokedAt: string | null;
}

/** Single-use: exactly one per allow, deny or grant hit; the Invocation it was made for references it. */
export interface PermissionAuthorizationRecord {
  id: string;
  sessionId: string;
  invocationId: string;
  requestId: string | null;
  grantId: string | null;
  action: string;
  resource: string;
  basis: AuthorizationBasis;
  allowed: boolean;
  via: PermissionChannel;
  epoch: number;
  createdAt: string;
}

export type InvocationOrigin = 'agent' | 'inspector';
/** `interrupted`: the call had started (its intent was durable) when the gateway stopped without finishing it. */
export type InvocationStatus = 'ok' | 'error' | 'cancelled' | 'interrupted';

/** The audit row every governed call writes, success or not. */
export interface InvocationRecord {
  id: string;
  sessionId: string;
  projectId: string;
  sourceId: string | null;
  toolId: string | null;
  toolName: string;
  origin: InvocationOrigin;
  status: InvocationStatus;
  errorCode: string | null;
  retryable: boolean | null;
  attempts: number;
  cacheHit: boolean;
  queueWaitMs: number;
  durationMs: number;
  sizeBytes: number | null;
  /** sha256 of the stored response (normalized result or error) in the CAS. */
  casHash: string | null;
  /** sha256 of the canonical arguments in the CAS. */
  argumentsHash: string | null;
  authorizationId: string | null;
  startedAt: string;
  endedAt: string;
}

/** What is known of an Invocation when it starts: recorded (durably) before any upstream result is answered. */
export type InvocationIntent = Pick<InvocationRecord, 'id' | 'sessionId' | 'projectId' | 'toolName' | 'origin' | 'argumentsHash' | 'startedAt'>;

/** Where a page of Invocations ended: the last row's start time and id (rows are ordered newest first, then by id). */
export interface InvocationCursor {
  startedAt: string;
  id: string;
}

/** A Project groups Sessions (`?project=`) and holds the connector selection they inherit. */
export interface ProjectRecord {
  id: string;
  name: string;
  /** `null` inherits the global selection. */
  connectors: string[] | null;
  createdAt: string;
  updatedAt: string;
}
