export { createMcpHttpRouter } from './mcpHttpRouter.js';
export { createMcpHttpEdge } from './mcpHttpEdge.js';
export { createDownstreamServer, downstreamHandlers, type DownstreamDeps } from './downstreamServer.js';
export { requireBearer, requireAllowedHost, jsonBody, LOOPBACK_HOSTS } from './httpGuards.js';
export type { CurrentToken } from './httpGuards.js';
export { httpStatusOf, httpErrorBody, sendHttpError, fromHttpError } from './httpErrors.js';
export { requestLog } from './requestLog.js';
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from './liveSessions.js';
export { workspaceResources, MAX_READ_BYTES, type WorkspaceResources } from './workspaceResources.js';
