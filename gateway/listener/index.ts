export { createMcpHttpRouter } from './mcpHttpRouter.js';
export { serveStdio } from './stdioListener.js';
export { createDownstreamServer, type DownstreamDeps } from './downstreamServer.js';
export { requireBearer, requireAllowedHost, LOOPBACK_HOSTS } from './httpGuards.js';
export { requestLog } from './requestLog.js';
