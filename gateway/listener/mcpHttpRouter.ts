import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Router, type Request, type Response } from 'express';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../core/index.js';
import { DEFAULT_SESSION_LIMITS, LiveSessions, type SessionLimits, type SessionReservation } from './liveSessions.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { STARTUP_DISCOVERY_WAIT_MS, createDownstreamServer, sessionFeatures, type DownstreamDeps } from './downstreamServer.js';
import { SessionOpenings } from './sessionOpenings.js';
import { createSourceServer, sourceFeatures } from './sourceView.js';
import { connectSessionServer, endSession, persistSession } from '../front/index.js';
import { readJsonBody } from './readJsonBody.js';
import { NodeStreamableTransport, sendRefusal } from './nodeStreamableTransport.js';
import { checkPost } from './streamableChecks.js';
import { answerRpcFailure, checkRpcBody, rpcErrorMiddleware, sendRpcError } from './rpcErrors.js';

export interface McpHttpDeps extends DownstreamDeps {
  clock: Clock;
  /** Idle timeout and session cap (defaults: 30 min, 1000). */
  sessionLimits?: SessionLimits;
}

export interface McpHttpRouter {
  /** The same endpoints for express (any path the Node entry leaves to express). */
  router: Router;
  /**
   * Serves `/mcp` and `/mcp/sources/<sourceId>` from a plain Node request, after the edge's guards:
   * the same body reading, routing and errors as `router`, without express on the tool-call path.
   * False when the path is not one of these (then express answers it).
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Live MCP sessions. */
  sessionCount(): number;
  /** Refuses new sessions, then closes every live session and every one still opening (the gateway is stopping). */
  closeAll(): Promise<void>;
}

const PROJECT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What a request still open hears when the gateway stops under it. */
const GATEWAY_STOPPING = 'scigate is stopping: this request was cancelled (a tool call is audited as cancelled). Send it again once the gateway is back.';

/**
 * How long a stop waits for sessions caught opening to get their server and close: an opening waits
 * this long for start-up discovery at most (sessionFeatures).
 */
const OPENINGS_STOP_WAIT_MS = STARTUP_DISCOVERY_WAIT_MS;

/** Largest /mcp request body (a tools/call with big arguments fits; a flood does not). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP at /mcp with stateful sessions: an initialize without `Mcp-Session-Id` opens a
 * new Session; a request naming an unknown session gets 404 so the client re-initializes.
 * `/mcp/sources/<sourceId>` serves one source's tools under their upstream names (sourceView.ts).
 */
export function createMcpHttpRouter(deps: McpHttpDeps): McpHttpRouter {
  const live = new LiveSessions(deps.sessionLimits ?? DEFAULT_SESSION_LIMITS, deps.clock);
  const stopped = new AbortController();
  const openings = new SessionOpenings<NodeStreamableTransport>(stopped.signal, GATEWAY_STOPPING);
  void sweepIdle(live, deps.clock, stopped.signal);
  const router = Router();
  const readBody = readJsonBody({ maxBytes: MAX_BODY_BYTES });
  router.use(readBody);

  // Which endpoint opened each live session: a session id is only valid where it was opened.
  const endpoints = new Map<string, string>();
  const serve = (endpoint: string, newServer: ServerFactory) => async (req: McpRequest, res: ServerResponse) => {
    const rejection = req.method === 'POST' ? checkRpcBody(req.body) : undefined;
    if (rejection) return sendRpcError(res, rejection);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = live.transport(sessionId);
      if (!transport || endpoints.get(sessionId) !== endpoint) return rpcError(res, 404, -32001, 'Session not found; initialize a new session.');
      res.once('close', live.begin(sessionId));
      return transport.handleNodeRequest(req, res, req.body);
    }
    if (req.method === 'POST' && Array.isArray(req.body) && req.body.some((message) => isInitializeRequest(message))) {
      return rpcError(res, 400, -32600, 'Invalid Request: initialize must be sent on its own, not in a batch.');
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return rpcError(res, 400, -32000, 'No Mcp-Session-Id header; send an initialize request first.');
    }
    const project = projectOf(req.url);
    if (!PROJECT_ID.test(project)) {
      return rpcError(res, 400, -32602, 'The ?project= value must be 1–64 letters, digits, _ or -.');
    }
    // What the transport would refuse (headers, an initialize without an id) is refused before a
    // session is built for it (one that never initializes joins nothing that would close it, and
    // kept its server and subscriptions for good), or a live one is evicted to make room.
    const refusal = checkPost(req.headers, req.body as unknown as JSONRPCMessage, undefined);
    if (refusal) return sendRefusal(res, refusal);
    // A stop closes what is open; a session opened after it would outlive it. The same error as the
    // requests the stop cancels (-32000, as the transport answers them), under 503 as the cap's refusal:
    // the gateway is unavailable for now, not the request wrong.
    // checkPost refused an initialize without an id, so its answer can name the one it has.
    const initializeId = (req.body as unknown as { id: string | number }).id;
    const stopping = () => sendRpcError(res, { status: 503, code: -32000, message: GATEWAY_STOPPING, id: initializeId });
    if (stopped.signal.aborted) return stopping();
    await live.evictionCandidate()?.close().catch(() => {});
    // Reserved in the same turn as the check: no other initialize can take this place meanwhile.
    const reservation = live.reserve();
    if (!reservation) {
      return rpcError(res, 503, -32000, 'Too many open MCP sessions, all busy; retry later, or raise --max-sessions (SCIGATE_MAX_SESSIONS).');
    }
    try {
      const opening = openSession({ deps, live, reservation, project, newServer, endpoints, endpoint });
      const joined = await openings.open(opening, (transport) => transport.handleNodeRequest(req, res, req.body));
      if (!joined) stopping();
    } finally {
      // A session that joined gave its place back as it did; one that failed to open or never joined gives it back here.
      reservation.release();
    }
  };
  const serveRoot = serve('/', async (id, onInitialized) => createDownstreamServer(deps, id, { onInitialized, features: await sessionFeatures(deps) }));
  const serveSource = (sourceId: string, req: McpRequest, res: ServerResponse) => {
    if (!deps.registry.get(sourceId)) {
      return rpcError(res, 404, -32001, `No source ${sourceId.slice(0, 80)}; GET /api/catalog/sources lists the Source IDs.`);
    }
    return serve(`/sources/${sourceId}`, async (id, onInitialized) =>
      createSourceServer(deps, { sessionId: id, sourceId, onInitialized, features: await sourceFeatures(deps, sourceId) }),
    )(req, res);
  };
  router.all('/', serveRoot);
  router.all('/sources/:sourceId', (req: Request, res: Response) => serveSource(String(req.params.sourceId), req, res));
  router.use(rpcErrorMiddleware(deps.log));

  const handle = (req: McpRequest, res: ServerResponse): boolean => {
    const route = ROUTE.exec(req.url ?? '');
    if (!route) return false;
    const failed = (thrown: unknown) => answerRpcFailure(thrown, res, deps.log);
    readBody(req, res, (error) => {
      if (error !== undefined) return failed(error);
      // Decoded after the body is read, as express does: a body error is the one reported.
      const answered = route[1] === undefined ? serveRoot(req, res) : new Promise<void>((resolve) => resolve(serveSource(decodeURIComponent(route[1]!), req, res)));
      answered.catch(failed);
    });
    return true;
  };

  return {
    router,
    handle,
    sessionCount: () => live.size,
    closeAll: async () => {
      stopped.abort();
      await openings.settled(OPENINGS_STOP_WAIT_MS);
      await Promise.all(live.transports().map((t) => t.close(GATEWAY_STOPPING).catch(() => {})));
    },
  };
}

/** Closes idle sessions until the router stops; closing ends the Session and cancels its pending requests. */
async function sweepIdle(live: LiveSessions, clock: Clock, stopped: AbortSignal): Promise<void> {
  while (!stopped.aborted) {
    await clock.sleep(live.sweepEveryMs, stopped).catch(() => {});
    await Promise.all(live.expired().map((t) => t.close().catch(() => {})));
  }
}

/** A request once its body is read (`body` stays undefined when it has none). */
type McpRequest = IncomingMessage & { body?: unknown };

/** The paths the Node entry serves: `/mcp` and `/mcp/sources/<sourceId>`, with or without a final slash and a query. */
const ROUTE = /^\/mcp(?:\/sources\/([^/?]+))?\/?(?:\?.*)?$/;

/** Whether the Node entry (`McpHttpRouter.handle`) serves this request URL. */
export function isMcpNodePath(url: string | undefined): boolean {
  return ROUTE.test(url ?? '');
}

/** The `?project=` of a request URL (one value; else `default`), parsed as express's simple query parser does. */
function projectOf(url: string | undefined): string {
  const query = url?.indexOf('?') ?? -1;
  const project = query < 0 ? undefined : parseQuery(url!.slice(query + 1)).project;
  return typeof project === 'string' ? project : 'default';
}

/** Builds the MCP server of a new Session at one endpoint (its capabilities may need its sources connected first). */
type ServerFactory = (sessionId: string, onInitialized: (server: Server) => Promise<void>) => Promise<Server>;

interface OpenSession {
  deps: McpHttpDeps;
  live: LiveSessions;
  /** The place this session holds under the cap until it joins `live`. */
  reservation: SessionReservation;
  project: string;
  newServer: ServerFactory;
  endpoints: Map<string, string>;
  endpoint: string;
}

/** A new Session's transport and downstream server; it joins `live` once the client initializes. */
async function openSession({ deps, live, reservation, project, newServer, endpoints, endpoint }: OpenSession): Promise<NodeStreamableTransport> {
  const id = deps.newId('ses');
  const transport = new NodeStreamableTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => {
      endpoints.set(id, endpoint);
      // The reservation turns into the session itself, in one step, so it is never counted twice or not at all.
      reservation.release();
      live.add(id, transport);
    },
  });
  const server = await newServer(id, (s) => persistSession(s, { id, projectId: project, transport: 'http' }, deps));
  transport.onclose = () => {
    endpoints.delete(id);
    live.delete(id);
    void endSession(id, deps).catch(() => {});
  };
  await connectSessionServer(server, transport);
  return transport;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendRpcError(res, { status, code, message, id: null });
}
