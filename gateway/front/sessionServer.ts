import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, SetLevelRequestSchema, SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolRequest, type CallToolResult, type CompleteRequest, type CompleteResult, type GetPromptRequest, type GetPromptResult,
  type ListPromptsResult, type ListResourceTemplatesResult, type ListResourcesResult, type ListToolsResult, type LoggingLevel, type ReadResourceResult,
  type ServerCapabilities, type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sharedSchemaValidator } from '../core/index.js';
import { answerToolCallsDirectly, type ToolCallHandler } from './directToolCalls.js';
import { rpcError } from './rpcError.js';
import { SESSION_CAPABILITIES, SESSION_INSTRUCTIONS, SESSION_SERVER_NAME } from '../handshake/index.js';

/**
 * tools/call as the Protocol routes it: by method alone. Both edges check the whole request against
 * CallToolRequestSchema before the Protocol sees it (checkRpcMessage, which answers a bad one
 * -32602 in words), so the Protocol's own full parse would only repeat that work on every call.
 */
const EDGE_CHECKED_TOOL_CALL = z.looseObject({ method: z.literal('tools/call') });

/** Its Session is persisted once the client says it is initialized; until then only ping is answered. */
const HANDSHAKE_UNFINISHED =
  'This session has not finished its handshake: send notifications/initialized after the initialize response (the MCP lifecycle requires it), then this request again.';

/** The SDK's per-request context (signal, notifications, the client's capabilities). */
export type SessionRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a session's MCP server does once the gateway runtime is ready. */
export interface SessionHandlers {
  listTools(): Promise<ListToolsResult>;
  callTool(request: CallToolRequest, extra: SessionRequestExtra): Promise<CallToolResult>;
  /**
   * The session is ending, before its running calls are aborted (connectSessionServer): what it
   * waits for ends as the session's end, not as its client cancelling it.
   */
  ending?(): void;
  /** The server closed: drop subscriptions, close the session's own connections. */
  closed(): void;
  /** The Session's resources (its workspace files); none when absent. */
  listResources?(): Promise<ListResourcesResult>;
  readResource?(uri: string): Promise<ReadResourceResult>;
  /** `logging/setLevel`: the level of log messages the Session wants (relayed from its upstreams). */
  setLoggingLevel?(level: LoggingLevel): Promise<void>;
  /** Custom servers' resource templates, prompts and completions, and resource subscriptions (served when declared). */
  listResourceTemplates?(): Promise<ListResourceTemplatesResult>;
  subscribeResource?(uri: string): Promise<void>;
  unsubscribeResource?(uri: string): Promise<void>;
  listPrompts?(): Promise<ListPromptsResult>;
  getPrompt?(params: GetPromptRequest['params']): Promise<GetPromptResult>;
  complete?(params: CompleteRequest['params']): Promise<CompleteResult>;
}

/**
 * Which optional capabilities a session's server declares (each only when it is served). Absent:
 * resources (the Session's files) without subscriptions, no prompts, no completions.
 */
export interface SessionFeatures {
  resources?: { subscribe: boolean };
  prompts?: boolean;
  completions?: boolean;
}

/** Binds a session's handlers to its server (they notify through it and ask its client for approval). */
export type SessionHandlersFactory = (server: Server) => SessionHandlers;

export interface SessionServerOptions {
  version: string;
  /** The handlers, or the promise of them while the runtime is still being built. */
  handlers: SessionHandlersFactory | Promise<SessionHandlersFactory>;
  /** Runs once the client has initialized (the Session is persisted then); requests wait for it. */
  onInitialized?: (server: Server) => Promise<void>;
  /** The optional capabilities to declare; absent (stdio, which answers initialize before its runtime exists): resources only. */
  features?: SessionFeatures;
}

function capabilitiesOf(features?: SessionFeatures): ServerCapabilities {
  // stdio declares what gateway/handshake answered `initialize` with before the SDK loaded.
  if (!features) return structuredClone(SESSION_CAPABILITIES);
  return {
    tools: { listChanged: true },
    logging: {},
    ...(features.resources ? { resources: { listChanged: true, ...(features.resources.subscribe ? { subscribe: true } : {}) } } : {}),
    ...(features.prompts ? { prompts: { listChanged: true } } : {}),
    ...(features.completions ? { completions: {} } : {}),
  };
}

/**
 * The MCP server one agent session talks to. It answers `initialize` by itself, so `scigate stdio`
 * can connect it before the runtime exists; tools/list and tools/call wait for the handlers (and for
 * the Session to be persisted). If the runtime cannot be built, every such request is answered with
 * a JSON-RPC error naming the cause, instead of waiting forever.
 */
export function createSessionServer(options: SessionServerOptions): Server {
  const declared = capabilitiesOf(options.features);
  const server = new Server({ name: SESSION_SERVER_NAME, version: options.version }, {
    capabilities: declared,
    instructions: SESSION_INSTRUCTIONS,
    // Approval forms are checked against one schema, compiled once for every Session.
    jsonSchemaValidator: sharedSchemaValidator,
  });
  const handlers = Promise.resolve(options.handlers).then((bind) => bind(server));
  // The failure is reported by each request that waits for the handlers.
  handlers.catch(() => {});
  // Read in the tick the session ends, which cannot wait for a promise.
  let bound: SessionHandlers | undefined;
  void handlers.then((b) => (bound = b), () => {});
  let ended = false;
  const end = () => {
    if (!ended) bound?.ending?.();
    ended = true;
  };
  let initialized: Promise<void> = Promise.resolve();
  let handshakeDone = !options.onInitialized;
  if (options.onInitialized) {
    const onInitialized = options.onInitialized;
    server.oninitialized = () => {
      // A client that sends notifications/initialized twice starts its Session once.
      if (handshakeDone) return;
      handshakeDone = true;
      initialized = onInitialized(server).catch(() => {});
    };
  }
  const ready = async (): Promise<SessionHandlers> => {
    if (!handshakeDone) throw rpcError(ErrorCode.InvalidRequest, HANDSHAKE_UNFINISHED);
    try {
      const bound = await handlers;
      await initialized;
      return bound;
    } catch (error) {
      throw rpcError(ErrorCode.InternalError, `scigate could not start: ${(error as Error).message}`);
    }
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => (await ready()).listTools());
  // Registered on the Protocol, not through Server.setRequestHandler: the Server's tools/call wrapper
  // parses the request twice more and the gateway's own result once (zod, about 25 us a call on the
  // answer's path); the result is built to CallToolResult's shape by the listener.
  const callTool: ToolCallHandler = async (request, extra) => (await ready()).callTool(request, extra);
  Protocol.prototype.setRequestHandler.call(server, EDGE_CHECKED_TOOL_CALL, (request, extra) => callTool(request as CallToolRequest, extra));
  sessionHooks.set(server, { callTool, end });
  if (declared.resources) serveResources(server, ready, declared.resources.subscribe === true);
  if (declared.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async () => (await ready()).listPrompts?.() ?? { prompts: [] });
    server.setRequestHandler(GetPromptRequestSchema, async (request) => served(await ready(), 'getPrompt', request.params.name)(request.params));
  }
  if (declared.completions) {
    server.setRequestHandler(CompleteRequestSchema, async (request) => (await ready()).complete?.(request.params) ?? { completion: { values: [] } });
  }
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    await (await ready()).setLoggingLevel?.(request.params.level);
    return {};
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    end();
    void handlers.then((b) => b.closed(), () => {});
    previousOnClose?.();
  };
  return server;
}

/** Each session server's tools/call handler and its `ending` call, for `connectSessionServer`. */
const sessionHooks = new WeakMap<Server, { callTool: ToolCallHandler; end: () => void }>();

/**
 * Connects a session server to its transport, with tools/call answered in front of the Protocol
 * (directToolCalls.ts): the call every agent makes most is spared the Protocol's per-message work.
 * When the transport closes, the handlers hear `ending` first, in the same tick, before the running
 * calls are aborted (the Protocol would tell them only after).
 */
export async function connectSessionServer(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const hooks = sessionHooks.get(server);
  if (!hooks) return;
  answerToolCallsDirectly(server, transport, hooks.callTool);
  const aborting = transport.onclose;
  transport.onclose = () => {
    hooks.end();
    aborting?.();
  };
}

type Ready = () => Promise<SessionHandlers>;

/** resources/list, templates, read, subscribe and unsubscribe, answered by the handlers that serve them. */
function serveResources(server: Server, ready: Ready, subscribe: boolean): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => (await ready()).listResources?.() ?? { resources: [] });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => (await ready()).listResourceTemplates?.() ?? { resourceTemplates: [] });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => served(await ready(), 'readResource', request.params.uri)(request.params.uri));
  if (!subscribe) return;
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await served(await ready(), 'subscribeResource', request.params.uri)(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await served(await ready(), 'unsubscribeResource', request.params.uri)(request.params.uri);
    return {};
  });
}

/** The handler named `method`, or a JSON-RPC error naming what was asked for when none serves it. */
function served<K extends 'readResource' | 'getPrompt' | 'subscribeResource' | 'unsubscribeResource'>(
  bound: SessionHandlers,
  method: K,
  asked: string,
): NonNullable<SessionHandlers[K]> {
  const handler = bound[method];
  if (!handler) throw rpcError(ErrorCode.InvalidParams, `No resource or prompt ${asked.slice(0, 200)} here; list them first.`);
  return handler.bind(bound) as NonNullable<SessionHandlers[K]>;
}
