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
  /** Connector selection: `null` inherits the project's / global selection. */
  connectors: string[] | null;
  createdAt: string;
  endedAt: string | null;
}

export type InvocationOrigin = 'agent' | 'inspector';
export type InvocationStatus = 'ok' | 'error' | 'cancelled';

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

/** A Project groups Sessions (`?project=`) and holds the connector selection they inherit. */
export interface ProjectRecord {
  id: string;
  name: string;
  /** `null` inherits the global selection. */
  connectors: string[] | null;
  createdAt: string;
  updatedAt: string;
}
