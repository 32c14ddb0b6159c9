import { GatewayError, type ConnectorSelectionReader } from '../../core/index.js';
import type { SourceRegistry } from '../../registry/index.js';
import type { Stage } from '../toolCall.js';

/**
 * Finds the governed tool: it must exist, be discovered, belong to an enabled source and be in the
 * Session's effective selection (or the Inspector's `allowedSourceIds`).
 */
export function withResolve(registry: SourceRegistry, selection?: ConnectorSelectionReader): Stage {
  return (next) => async (call) => {
    const tool = registry.resolve(call.toolName);
    if (!tool) {
      throw new GatewayError(
        'tool_unavailable',
        `No tool named "${call.toolName.slice(0, 100)}" is available; list the tools again (the catalog may have changed).`,
      );
    }
    const selected = call.allowedSourceIds ?? (selection ? await selection.effective(call.session) : call.session.connectors);
    if (selected && !selected.includes(tool.sourceId)) {
      throw new GatewayError('tool_unavailable', `The source "${tool.sourceId}" is not selected for this session.`);
    }
    call.tool = tool;
    return next(call);
  };
}
