import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createSessionServer, type SessionHandlersFactory, type SessionRequestExtra } from '../front/index.js';
import { GatewayError, type ConnectorSelectionReader, type EventHub, type Logger, type NewId, type SessionRecord, type SessionStore, type SessionWorkspace } from '../core/index.js';
import type { Broker, ToolRequest } from '../broker/index.js';
import type { SourceRegistry } from '../registry/index.js';
import { isSourceSelected } from '../selection/index.js';
import { failureResult, nativeSuccessResult, successResult, toListedTool } from './toolResults.js';
import type { PermissionGate } from '../permissions/index.js';
import { clientApprover } from './clientApprover.js';
import { workspaceResources } from './workspaceResources.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

export interface DownstreamDeps {
  registry: SourceRegistry;
  broker: Broker;
  sessions: SessionStore;
  newId: NewId;
  log: Logger;
  version: string;
  /** Cancels the pending permission requests of a session that closes. */
  permissionGate: PermissionGate;
  /** Also ask for permission inside clients that declared elicitation (default true). */
  elicitation?: boolean;
  /** The Session's effective connector selection (Session → Project → global); the broker decides calls by it too. */
  connectors: ConnectorSelectionReader;
  /** The Session workspaces, served as MCP resources (with `events` telling when a file lands). */
  workspace?: SessionWorkspace;
  events?: EventHub;
}

/**
 * The MCP server one agent session talks to over HTTP: tools/list shows the governed tools of its
 * Session, tools/call hands every call to the broker. `sessionId` names the persisted Session;
 * `onInitialized` persists it (requests wait for it).
 */
export function createDownstreamServer(deps: DownstreamDeps, sessionId: string, onInitialized?: (server: Server) => Promise<void>): Server {
  return createSessionServer({ version: deps.version, handlers: downstreamHandlers(deps, sessionId), ...(onInitialized ? { onInitialized } : {}) });
}

/** The governed tools/list and tools/call of one Session, bound to its server. */
export function downstreamHandlers(deps: DownstreamDeps, sessionId: string): SessionHandlersFactory {
  const session = async (): Promise<SessionRecord> => {
    const record = await deps.sessions.get(sessionId);
    if (!record) throw new GatewayError('not_found', 'This MCP session is not known; reconnect to start a new one.');
    return record;
  };
  return (server) => {
    const listChanged = coalescedListChanged(deps.registry, server);
    const unsubscribe = deps.registry.onChange(listChanged);
    const unsubscribeSelection = deps.connectors.onChange(listChanged);
    const files = deps.workspace ? workspaceResources({ workspace: deps.workspace, ...(deps.events ? { events: deps.events } : {}) }, sessionId) : undefined;
    const unsubscribeFiles = files?.onChange(() => void server.sendResourceListChanged().catch(() => {}));
    return {
      listTools: async () => {
        await deps.registry.settled();
        const current = await session();
        const selected = await deps.connectors.effective(current);
        const tools = deps.registry.tools().filter((t) => isSourceSelected(selected, t.sourceId));
        return { tools: [...tools.map(toListedTool), ...deps.broker.nativeTools()] };
      },
      callTool: (request, extra) => callTool({ deps, server, session }, request, extra),
      closed: () => {
        unsubscribe();
        void deps.permissionGate.cancelSession(sessionId).catch((error: unknown) => deps.log.warn({ err: error, sessionId }, 'could not cancel pending permission requests'));
        unsubscribeSelection();
        unsubscribeFiles?.();
      },
      ...(files
        ? {
            listResources: () => files.list(),
            // A GatewayError becomes a JSON-RPC error the client can read (resources have no isError result).
            readResource: (uri: string) =>
              files.read(uri).catch((error: unknown) => {
                const e = GatewayError.from(error);
                throw new McpError(e.code === 'not_found' || e.code === 'invalid_input' ? ErrorCode.InvalidParams : ErrorCode.InternalError, e.message);
              }),
          }
        : {}),
    };
  };
}

interface CallContext {
  deps: DownstreamDeps;
  server: Server;
  session: () => Promise<SessionRecord>;
}

/** One tools/call through the broker; a failure becomes an `isError` result, never a thrown error. */
async function callTool({ deps, server, session }: CallContext, request: CallToolRequest, extra: SessionRequestExtra): Promise<CallToolResult> {
  const invocationId = deps.newId('inv');
  const progressToken = request.params._meta?.progressToken;
  try {
    const call: ToolRequest = {
      invocationId,
      toolName: request.params.name,
      arguments: request.params.arguments ?? {},
      session: await session(),
      origin: 'agent',
      signal: extra.signal,
      askClient: clientApprover(server, extra, deps.elicitation !== false),
      ...(progressToken !== undefined
        ? {
            onProgress: (p) =>
              void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken } }).catch(() => {}),
          }
        : {}),
    };
    await deps.registry.settled();
    const outcome = await deps.broker.call(call);
    if (outcome.native) return nativeSuccessResult(outcome.native, invocationId);
    // Custom (generic) tools pass the upstream's own content blocks (images, resources) through.
    const generic = outcome.tool?.envelope === 'generic';
    return successResult(outcome.result, invocationId, generic ? outcome.raw.content : undefined);
  } catch (error) {
    return failureResult(GatewayError.from(error), invocationId);
  }
}

/**
 * One `notifications/tools/list_changed` per settled catalog: while discovery runs (twelve sources
 * found one by one at start-up) the changes are folded into a single notification sent when it
 * settles; afterwards every change is sent as it happens.
 */
function coalescedListChanged(registry: SourceRegistry, server: Server): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    void registry
      .settled()
      .then(() => {
        pending = false;
        return server.sendToolListChanged();
      })
      .catch(() => {});
  };
}
