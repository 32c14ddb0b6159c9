import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createSessionServer, type SessionFeatures, type SessionHandlersFactory } from '../front/index.js';
import { downstreamHandlers, type DownstreamDeps } from './downstreamServer.js';
import { featuresOf } from './featureHandlers.js';

/**
 * The MCP server of `/mcp/sources/<sourceId>`: one source's tools, resources, resource templates,
 * prompts and completions under their upstream names (capabilities as the server declared them), for
 * clients that want one server (and so a protocol test suite can run through the gateway). Every
 * call still goes through the broker as the governed tool: same token, Session, selection,
 * permissions, limits and audit as `/mcp`.
 */
export function createSourceServer(
  deps: DownstreamDeps,
  options: { sessionId: string; sourceId: string; onInitialized?: (server: Server) => Promise<void>; features?: SessionFeatures },
): Server {
  return createSessionServer({
    version: deps.version,
    handlers: sourceHandlers(deps, options.sessionId, options.sourceId),
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
    ...(options.features ? { features: options.features } : {}),
  });
}

/** What `/mcp/sources/<sourceId>` declares: what the server declared, once it is connected (a failed connect declares tools only). */
export async function sourceFeatures(deps: DownstreamDeps, sourceId: string): Promise<SessionFeatures> {
  const entry = deps.registry.get(sourceId);
  if (!entry) return {};
  // A disabled server's program is never started just to answer initialize.
  if (!entry.client.serverCapabilities && entry.enabled) await entry.client.open().catch(() => {});
  return featuresOf([entry], { files: false });
}

/** The Session's governed handlers, narrowed to one source and renamed to the upstream's names. */
export function sourceHandlers(deps: DownstreamDeps, sessionId: string, sourceId: string): SessionHandlersFactory {
  const governedName = (upstreamName: string) => deps.registry.tools().find((t) => t.sourceId === sourceId && t.upstreamName === upstreamName)?.name;
  return (server) => {
    const all = downstreamHandlers(deps, sessionId, { sourceId })(server);
    return {
      listTools: async () => {
        const { tools } = await all.listTools();
        const own = tools.flatMap((listed) => {
          const tool = deps.registry.resolve(listed.name);
          return tool?.sourceId === sourceId ? [{ ...listed, name: tool.upstreamName }] : [];
        });
        return { tools: own };
      },
      callTool: async (request, extra) => {
        await deps.registry.settled();
        // A name this source does not expose stays unresolvable, so the broker answers (and audits) tool_unavailable.
        const name = governedName(request.params.name) ?? `${sourceId}/${request.params.name}`;
        return all.callTool({ ...request, params: { ...request.params, name } }, extra);
      },
      ending: () => all.ending?.(),
      closed: () => all.closed(),
      ...(all.setLoggingLevel ? { setLoggingLevel: all.setLoggingLevel } : {}),
      ...pick(all, ['listResources', 'readResource', 'listResourceTemplates', 'subscribeResource', 'unsubscribeResource', 'listPrompts', 'getPrompt', 'complete']),
    };
  };
}

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]])) as Pick<T, K>;
}
