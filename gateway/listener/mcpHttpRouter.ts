import { Router, type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../core/index.js';
import { createDownstreamServer, type DownstreamDeps } from './downstreamServer.js';
import { endSession, persistSessionOnInitialize } from './sessionLifecycle.js';
import { jsonBody } from './httpGuards.js';
import { checkRpcBody, rpcErrorMiddleware, sendRpcError } from './rpcErrors.js';

export interface McpHttpDeps extends DownstreamDeps {
  clock: Clock;
}

export interface McpHttpRouter {
  router: Router;
  /** Live MCP sessions. */
  sessionCount(): number;
  /** Closes every live session (the gateway is stopping). */
  closeAll(): Promise<void>;
}

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Largest /mcp request body (a tools/call with big arguments fits; a flood does not). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP at /mcp with stateful sessions: an initialize without `Mcp-Session-Id` opens a
 * new Session; a request naming an unknown session gets 404 so the client re-initializes.
 */
export function createMcpHttpRouter(deps: McpHttpDeps): McpHttpRouter {
  const live = new Map<string, StreamableHTTPServerTransport>();
  const router = Router();
  router.use(jsonBody({ maxBytes: MAX_BODY_BYTES }));

  router.all('/', async (req: Request, res: Response) => {
    const rejection = req.method === 'POST' ? checkRpcBody(req.body) : undefined;
    if (rejection) return sendRpcError(res, rejection);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = live.get(sessionId);
      if (!transport) return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
      return transport.handleRequest(req, res, req.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return rpcError(res, 400, -32000, 'No Mcp-Session-Id header; send an initialize request first.');
    }
    const project = typeof req.query.project === 'string' ? req.query.project : 'default';
    if (!PROJECT_ID.test(project)) {
      return rpcError(res, 400, -32602, 'The ?project= value must be 1–64 letters, digits, _ or -.');
    }
    const transport = await openSession(deps, live, project);
    await transport.handleRequest(req, res, req.body);
  });
  router.use(rpcErrorMiddleware(deps.log));

  return {
    router,
    sessionCount: () => live.size,
    closeAll: async () => {
      await Promise.all([...live.values()].map((t) => t.close().catch(() => {})));
    },
  };
}

/** A new Session's transport and downstream server; it joins `live` once the client initializes. */
async function openSession(deps: McpHttpDeps, live: Map<string, StreamableHTTPServerTransport>, project: string): Promise<StreamableHTTPServerTransport> {
  const id = deps.newId('ses');
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => void live.set(id, transport),
  });
  const server = createDownstreamServer(deps, id);
  persistSessionOnInitialize(server, { id, projectId: project, transport: 'http' }, deps);
  transport.onclose = () => {
    live.delete(id);
    void endSession(id, deps).catch(() => {});
  };
  await server.connect(transport);
  return transport;
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  sendRpcError(res, { status, code, message, id: null });
}
