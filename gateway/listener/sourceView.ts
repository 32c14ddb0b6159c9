import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createSessionServer, type SessionHandlersFactory } from '../front/index.js';
import { downstreamHandlers, type DownstreamDeps } from './downstreamServer.js';

/**
 * The MCP server of `/mcp/sources/<sourceId>`: one source's tools under their upstream names, for
 * clients that want one server (and so a protocol test suite can run through the gateway). Every
 * call still goes through the broker as the governed tool: same token, Session, selection,
 * permissions, limits and audit as `/mcp`.
 */
export function createSourceServer(
  deps: DownstreamDeps,
  options: { sessionId: string; sourceId: string; onInitialized?: (server: Server) => Promise<void> },
): Server {
  return createSessionServer({
    version: deps.version,
    handlers: sourceHandlers(deps, options.sessionId, options.sourceId),
    ...(options.onInitialized ? { onInitialized: options.onInitialized } : {}),
  });
}

/** The Session's governed handlers, narrowed to one source and renamed to the upstream's names. */
export function sourceHandlers(deps: DownstreamDeps, sessionId: string, sourceId: string): SessionHandlersFactory {
  const governedName = (upstreamName: string) => deps.registry.tools().find((t) => t.sourceId === sourceId && t.upstreamName === upstreamName)?.name;
  return (server) => {
    const all = downstreamHandlers(deps, sessionId)(server);
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
      closed: () => all.closed(),
      ...(all.setLoggingLevel ? { setLoggingLevel: all.setLoggingLevel } : {}),
    };
  };
}
