import { sourceLabel } from '../../../catalog/index.js';
import { CallDeadline, GatewayError, withFields, type Clock, type ConnectorSelectionReader } from '../../core/index.js';
import type { SourceRegistry } from '../../registry/index.js';
import { isSourceSelected } from '../../selection/index.js';
import type { AuditedRequest, Handler, ResolvedCall } from '../toolCall.js';

export interface ResolveDeps {
  registry: SourceRegistry;
  /** The Session's effective connector selection; tools/list filters with the same rule. */
  connectors: ConnectorSelectionReader;
  clock: Clock;
}

/**
 * Finds the governed tool — it must exist, be discovered, belong to an enabled source and be in the
 * Session's effective selection (or the Inspector's `allowedSourceIds`) — and captures, once, all
 * that the later stages use: tool, manifest, client and the call's deadline.
 */
export function withResolve(deps: ResolveDeps): (next: Handler<ResolvedCall>) => Handler<AuditedRequest> {
  return (next) => async (request) => {
    const tool = deps.registry.resolve(request.toolName);
    const source = tool && deps.registry.get(tool.sourceId);
    if (!tool || !source) throw unknownTool(deps.registry, request.toolName);
    const selected = request.allowedSourceIds ?? (await deps.connectors.effective(request.session));
    if (!isSourceSelected(selected, tool.sourceId)) {
      throw new GatewayError('tool_unavailable', `The source "${tool.sourceId}" is not selected for this session.`);
    }
    request.trail.resolved(tool);
    const client = request.upstreamFor?.(tool.sourceId) ?? source.client;
    const call: ResolvedCall = withFields(request, { tool, manifest: source.manifest, client, deadline: new CallDeadline(deps.clock) });
    return withFields(await next(call), { tool });
  };
}

/**
 * No such tool now. When the name is one of a source whose tools could not be listed (after a
 * restart, a custom server that wants an OAuth login lists none), the agent hears that cause, as
 * `auth_required` when it is one, instead of a bare "list the tools again" that cannot help.
 */
function unknownTool(registry: SourceRegistry, name: string): GatewayError {
  const shown = name.slice(0, 100);
  const failed = registry.failedSourceOf(name);
  if (!failed) return new GatewayError('tool_unavailable', `No tool named "${shown}" is available; list the tools again (the catalog may have changed).`);
  const code = failed.discovery.code === 'auth_required' || failed.discovery.code === 'insufficient_scope' ? failed.discovery.code : 'tool_unavailable';
  return new GatewayError(code, `"${shown}" is not available: ${sourceLabel(failed.manifest)} could not list its tools: ${failed.discovery.error ?? 'discovery failed'}`, {
    details: { sourceId: failed.manifest.id },
  });
}
