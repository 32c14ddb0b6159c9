/** Agents see governed tools as `mcp__<sourceId>__<toolId>`, or `<sourceId>__<toolId>` with the short prefix. */
export type ToolPrefix = 'mcp' | 'short';

/** Most MCP clients and model providers reject longer tool names. */
export const MAX_TOOL_NAME_CHARS = 64;

/** The name agents see for a source's tool. */
export function governedToolName(sourceId: string, toolId: string, prefix: ToolPrefix = 'mcp'): string {
  return prefix === 'mcp' ? `mcp__${sourceId}__${toolId}` : `${sourceId}__${toolId}`;
}
