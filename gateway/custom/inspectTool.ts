import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { InspectToolRequest, McpToolResult } from '../../catalog/index.js';
import type { Broker } from '../broker/index.js';
import { GatewayError, type Clock, type NewId, type SessionStore, type WireError } from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';

export interface InspectDeps {
  registry: SourceRegistry;
  broker: Broker;
  sessions: SessionStore;
  clock: Clock;
  newId: NewId;
}

/** What `POST /api/mcp/servers/:id/inspect` answers (HTTP 200 even when `ok` is false). */
export interface InspectResult {
  ok: boolean;
  durationMs: number;
  invocationId: string;
  raw: CallToolResult | null;
  normalized: McpToolResult | null;
  error: WireError | null;
}

/**
 * One manual tool call from the Inspector (seed §5.4): an existing Session, an enabled server and a
 * discovered tool; it runs through the same broker, restricted to this server by
 * `allowedSourceIds` without touching the Session's selection, and is audited with origin `inspector`.
 */
export async function inspectTool(deps: InspectDeps, serverId: string, request: InspectToolRequest, signal: AbortSignal): Promise<InspectResult> {
  const session = await deps.sessions.get(request.sessionId);
  if (!session) throw new GatewayError('not_found', `sessionId: no session ${request.sessionId.slice(0, 80)}; list them with GET /api/sessions.`);
  const entry = deps.registry.get(serverId);
  if (!entry?.enabled) throw new GatewayError('conflict', `The server ${serverId} is disabled; enable it before inspecting its tools.`);
  // By its id, its upstream name, or the name agents see (all three are in GET /api/mcp/servers/:id).
  const tool = entry.tools.find((t) => t.toolId === request.toolId || t.upstreamName === request.toolId || t.name === request.toolId);
  if (!tool) {
    throw new GatewayError('not_found', `toolId: ${serverId} has no discovered tool "${request.toolId.slice(0, 100)}"; see its tools in GET /api/mcp/servers/${serverId}.`);
  }
  const invocationId = deps.newId('inv');
  const startedAt = deps.clock.now();
  try {
    const outcome = await deps.broker.call({
      invocationId,
      toolName: tool.name,
      arguments: request.arguments,
      session,
      origin: 'inspector',
      signal,
      allowedSourceIds: [serverId],
    });
    return { ok: true, durationMs: deps.clock.now() - startedAt, invocationId, raw: outcome.raw, normalized: outcome.result ?? null, error: null };
  } catch (error) {
    const wire = GatewayError.from(error).toJSON();
    return { ok: false, durationMs: deps.clock.now() - startedAt, invocationId, raw: null, normalized: null, error: wire };
  }
}
