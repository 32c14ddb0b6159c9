import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createSessionServer, type SessionFeatures, type SessionHandlersFactory, type SessionRequestExtra } from '../front/index.js';
import { GatewayError, boundedWait, type ConnectorSelectionReader, type EventHub, type Logger, type NewId, type SessionRecord, type SessionStore, type SessionWorkspace } from '../core/index.js';
import type { Broker, ToolRequest } from '../broker/index.js';
import type { SourceEntry, SourceRegistry } from '../registry/index.js';
import { isSourceSelected } from '../selection/index.js';
import { customToolResult, failureResult, nativeSuccessResult, successResult, toListedTool } from './toolResults.js';
import type { PermissionGate } from '../permissions/index.js';
import { clientApprover } from './clientApprover.js';
import { progressRelay } from './progressRelay.js';
import { SessionUpstreams, type SessionClientFactory } from './sessionUpstreams.js';
import { workspaceResources } from './workspaceResources.js';
import { UpstreamFeatures } from './upstreamFeatures.js';
import { featureHandlers, featuresOf } from './featureHandlers.js';
import { namespacedNaming, upstreamNaming } from './featureNames.js';
import { sessionRecordCache } from './sessionRecordCache.js';

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
  /** Resolves when the enabled custom servers found at start-up were discovered; tools/list waits for it, bounded. */
  startupDiscovery?: () => Promise<void>;
  /** Opens a Session's own connection to a custom server, for sampling, elicitation and roots (sessionUpstreams.ts). */
  sessionClient?: SessionClientFactory;
  /** This process is the only writer of Sessions (the embedded store): a live session keeps its record (sessionRecordCache.ts). */
  sessionsOwned?: boolean;
}

/**
 * How long tools/list waits for the custom servers found at start-up. Many clients list tools once,
 * right after `initialize`; a server still starting after this is listed with `list_changed` later.
 */
export const STARTUP_DISCOVERY_WAIT_MS = 5_000;

/**
 * The MCP server one agent session talks to over HTTP: tools/list shows the governed tools of its
 * Session, tools/call hands every call to the broker. `sessionId` names the persisted Session;
 * `onInitialized` persists it (requests wait for it); `features` are the capabilities it declares
 * beyond tools and logging (see `sessionFeatures`).
 */
export function createDownstreamServer(
  deps: DownstreamDeps,
  sessionId: string,
  options: { onInitialized?: (server: Server) => Promise<void>; features?: SessionFeatures } = {},
): Server {
  return createSessionServer({ version: deps.version, handlers: downstreamHandlers(deps, sessionId), ...options });
}

/**
 * What a new Session on `/mcp` declares: resources when it has workspace files or an enabled custom
 * server offers resources (with `subscribe` when one offers subscriptions), prompts and completions
 * when one offers them. Waits (bounded) for the servers found at start-up, whose capabilities are
 * known once they connected.
 */
export async function sessionFeatures(deps: DownstreamDeps): Promise<SessionFeatures> {
  await boundedWait(deps.startupDiscovery?.(), STARTUP_DISCOVERY_WAIT_MS);
  return featuresOf(customSources(deps.registry), { files: deps.workspace !== undefined });
}

/** The custom servers whose resources and prompts a Session may see: enabled and discovered. */
function customSources(registry: SourceRegistry): SourceEntry[] {
  return registry.sources().filter((e) => e.manifest.type === 'custom' && e.enabled && e.discovery.state === 'ready');
}

/** Which sources a Session's resources, prompts and completions come from, and how they are named. */
export interface FeatureView {
  /** `/mcp/sources/<sourceId>`: that source alone, under its upstream names, without the workspace files. */
  sourceId?: string;
}

/** The governed tools/list and tools/call of one Session, bound to its server. */
export function downstreamHandlers(deps: DownstreamDeps, sessionId: string, view: FeatureView = {}): SessionHandlersFactory {
  return (server) => {
    const records = sessionRecordCache(deps, sessionId);
    const session = async (): Promise<SessionRecord> => {
      const record = await records.read();
      if (!record) throw new GatewayError('not_found', 'This MCP session is not known; reconnect to start a new one.');
      return record;
    };
    const upstreams = sessionUpstreams(deps, sessionId, server);
    const features = upstreamFeatures({ deps, sessionId, server, session, upstreams, view });
    const listChanged = coalescedListChanged(deps.registry, server);
    const unsubscribe = deps.registry.onChange(listChanged);
    const unsubscribeSelection = deps.connectors.onChange(listChanged);
    const files = deps.workspace && !view.sourceId ? workspaceResources({ workspace: deps.workspace, ...(deps.events ? { events: deps.events } : {}) }, sessionId) : undefined;
    const unsubscribeFiles = files?.onChange(() => void server.sendResourceListChanged().catch(() => {}));
    return {
      listTools: async () => {
        await deps.registry.settled();
        await boundedWait(deps.startupDiscovery?.(), STARTUP_DISCOVERY_WAIT_MS);
        const current = await session();
        const selected = await deps.connectors.effective(current);
        const tools = deps.registry.tools().filter((t) => isSourceSelected(selected, t.sourceId));
        return { tools: [...tools.map(toListedTool), ...deps.broker.nativeTools()] };
      },
      callTool: (request, extra) => callTool({ deps, server, session, upstreams }, request, extra),
      setLoggingLevel: async (level) => upstreams?.setLoggingLevel(level),
      ending: () => {
        void deps.permissionGate.cancelSession(sessionId).catch((error: unknown) => deps.log.warn({ err: error, sessionId }, 'could not cancel pending permission requests'));
      },
      closed: () => {
        void features.close().then(() => upstreams?.close());
        unsubscribe();
        unsubscribeSelection();
        unsubscribeFiles?.();
        records.close();
      },
      ...featureHandlers(features, files),
    };
  };
}

/** The Session's own upstream connections (sampling, elicitation, roots, logging), when custom servers can open them. */
function sessionUpstreams(deps: DownstreamDeps, sessionId: string, server: Server): SessionUpstreams | undefined {
  if (!deps.sessionClient) return undefined;
  const workspace = deps.workspace;
  return new SessionUpstreams({
    server, sessionId, registry: deps.registry, open: deps.sessionClient, log: deps.log,
    ...(workspace ? { workspaceRoot: () => workspace.rootPath(sessionId) } : {}),
  });
}

/** The Session's custom servers' resources, prompts and completions: all of them namespaced, or one source's under its own names. */
function upstreamFeatures(o: CallContext & { sessionId: string; view: FeatureView }): UpstreamFeatures {
  const { deps, view } = o;
  return new UpstreamFeatures({
    server: o.server, sessionId: o.sessionId, log: deps.log,
    naming: view.sourceId ? upstreamNaming : namespacedNaming(deps.registry.toolPrefix),
    sources: async () => {
      const selected = await deps.connectors.effective(await o.session());
      const own = view.sourceId ? deps.registry.sources().filter((e) => e.manifest.id === view.sourceId && e.enabled) : customSources(deps.registry);
      return own.filter((e) => isSourceSelected(selected, e.manifest.id));
    },
    ownClient: (sourceId) => o.upstreams?.clientFor(sourceId),
  });
}

interface CallContext {
  deps: DownstreamDeps;
  server: Server;
  session: () => Promise<SessionRecord>;
  upstreams: SessionUpstreams | undefined;
}

/** One tools/call through the broker; a failure becomes an `isError` result, never a thrown error. */
async function callTool({ deps, server, session, upstreams }: CallContext, request: CallToolRequest, extra: SessionRequestExtra): Promise<CallToolResult> {
  const invocationId = deps.newId('inv');
  const progressToken = request.params._meta?.progressToken;
  const own = upstreams?.forCall(extra.requestId);
  try {
    const call: ToolRequest = {
      invocationId,
      toolName: request.params.name,
      arguments: request.params.arguments ?? {},
      session: await session(),
      origin: 'agent',
      signal: extra.signal,
      askClient: clientApprover(server, extra, deps.elicitation !== false),
      // Through the Session's own connection, what the server asks goes on this call's stream.
      ...(own ? { upstreamFor: own.clientFor } : {}),
      ...(progressToken !== undefined
        ? {
            onProgress: progressRelay(
              (p) => void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken } }).catch(() => {}),
            ),
          }
        : {}),
    };
    await deps.registry.settled();
    const outcome = await deps.broker.call(call);
    if (outcome.native) return nativeSuccessResult(outcome.native, invocationId);
    // Custom (generic) tools pass the upstream's own answer through, with scigate's provenance in _meta.
    if (outcome.tool?.envelope === 'generic') return customToolResult(outcome.raw, outcome.result, invocationId);
    return successResult(outcome.result, invocationId);
  } catch (error) {
    const ownOutputSchema = deps.registry.resolve(request.params.name)?.upstream?.outputSchema !== undefined;
    return failureResult(GatewayError.from(error), invocationId, { ownOutputSchema });
  } finally {
    own?.end();
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
