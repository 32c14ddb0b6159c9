import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema, SetLevelRequestSchema,
  type CallToolRequest, type CallToolResult, type ListResourcesResult, type ListToolsResult, type LoggingLevel, type ReadResourceResult,
  type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { SESSION_CAPABILITIES, SESSION_INSTRUCTIONS, SESSION_SERVER_NAME } from '../handshake/index.js';

/** The SDK's per-request context (signal, notifications, the client's capabilities). */
export type SessionRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a session's MCP server does once the gateway runtime is ready. */
export interface SessionHandlers {
  listTools(): Promise<ListToolsResult>;
  callTool(request: CallToolRequest, extra: SessionRequestExtra): Promise<CallToolResult>;
  /** The server closed: drop subscriptions, cancel the session's pending work. */
  closed(): void;
  /** The Session's resources (its workspace files); none when absent. */
  listResources?(): Promise<ListResourcesResult>;
  readResource?(uri: string): Promise<ReadResourceResult>;
  /** `logging/setLevel`: the level of log messages the Session wants (relayed from its upstreams). */
  setLoggingLevel?(level: LoggingLevel): Promise<void>;
}

/** Binds a session's handlers to its server (they notify through it and ask its client for approval). */
export type SessionHandlersFactory = (server: Server) => SessionHandlers;

export interface SessionServerOptions {
  version: string;
  /** The handlers, or the promise of them while the runtime is still being built. */
  handlers: SessionHandlersFactory | Promise<SessionHandlersFactory>;
  /** Runs once the client has initialized (the Session is persisted then); requests wait for it. */
  onInitialized?: (server: Server) => Promise<void>;
}

/**
 * The MCP server one agent session talks to. It answers `initialize` by itself, so `scigate stdio`
 * can connect it before the runtime exists; tools/list and tools/call wait for the handlers (and for
 * the Session to be persisted). If the runtime cannot be built, every such request is answered with
 * a JSON-RPC error naming the cause, instead of waiting forever.
 */
export function createSessionServer(options: SessionServerOptions): Server {
  // Declared in gateway/handshake, which `scigate stdio` answers `initialize` from before the SDK loads.
  const server = new Server({ name: SESSION_SERVER_NAME, version: options.version }, { capabilities: { ...SESSION_CAPABILITIES }, instructions: SESSION_INSTRUCTIONS });
  const handlers = Promise.resolve(options.handlers).then((bind) => bind(server));
  // The failure is reported by each request that waits for the handlers.
  handlers.catch(() => {});
  let initialized: Promise<void> = Promise.resolve();
  if (options.onInitialized) {
    const onInitialized = options.onInitialized;
    server.oninitialized = () => void (initialized = onInitialized(server).catch(() => {}));
  }
  const ready = async (): Promise<SessionHandlers> => {
    try {
      const bound = await handlers;
      await initialized;
      return bound;
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `scigate could not start: ${(error as Error).message}`);
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => (await ready()).listTools());
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => (await ready()).callTool(request, extra));
  server.setRequestHandler(ListResourcesRequestSchema, async () => (await ready()).listResources?.() ?? { resources: [] });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const bound = await ready();
    if (!bound.readResource) throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri.slice(0, 200)}; list the resources first.`);
    return bound.readResource(request.params.uri);
  });
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    await (await ready()).setLoggingLevel?.(request.params.level);
    return {};
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    void handlers.then((bound) => bound.closed(), () => {});
    previousOnClose?.();
  };
  return server;
}
