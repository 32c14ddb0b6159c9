import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/index.js';
import { BEARER_CHALLENGE, bearerCheck, hostCheck, refuseRpc, type CurrentToken } from './httpGuards.js';
import { isMcpNodePath, type McpHttpRouter } from './mcpHttpRouter.js';
import { requestLog } from './requestLog.js';

export interface McpHttpEdgeOptions {
  mcp: Pick<McpHttpRouter, 'handle'>;
  /** The admin token every /mcp request must carry as `Authorization: Bearer`. */
  token: CurrentToken;
  /** Host names a request's Host and Origin must name (absent: any, as for a non-loopback listener without --allowed-hosts). */
  allowedHosts?: readonly string[];
  log: Logger;
}

/**
 * The /mcp endpoints served from the Node server before express: every MCP request (each tool
 * call is one) passes the same request log, DNS-rebinding and bearer guards as express's /mcp
 * chain, then the router's Node entry. Returns false, having done nothing, for any other path.
 */
export function createMcpHttpEdge(options: McpHttpEdgeOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const logRequest = requestLog(options.log);
  const hostRefusal = options.allowedHosts ? hostCheck(options.allowedHosts) : undefined;
  const bearerRefusal = bearerCheck(options.token);
  const pass = () => {};
  return (req, res) => {
    if (!isMcpNodePath(req.url)) return false;
    logRequest(req, res, pass);
    const forbidden = hostRefusal?.(req.headers);
    if (forbidden) {
      refuseRpc(res, forbidden);
      return true;
    }
    const unauthorized = bearerRefusal(req.headers.authorization);
    if (unauthorized) {
      res.setHeader('WWW-Authenticate', BEARER_CHALLENGE);
      refuseRpc(res, unauthorized);
      return true;
    }
    return options.mcp.handle(req, res);
  };
}
