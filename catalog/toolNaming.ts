/** Agents see governed tools as `mcp__<sourceId>__<toolId>`, or `<sourceId>__<toolId>` with the short prefix. */
export type ToolPrefix = 'mcp' | 'short';

/** Most MCP clients and model providers reject longer tool names. */
export const MAX_TOOL_NAME_CHARS = 64;

export function governedToolName(sourceId: string, toolId: string, prefix: ToolPrefix = 'mcp'): string {
  return prefix === 'mcp' ? `mcp__${sourceId}__${toolId}` : `${sourceId}__${toolId}`;
}

/** Splits a governed tool name; undefined when it is not one. */
export function parseGovernedToolName(
  name: string,
  prefix: ToolPrefix = 'mcp',
): { sourceId: string; toolId: string } | undefined {
  const rest = prefix === 'mcp' ? (name.startsWith('mcp__') ? name.slice(5) : undefined) : name;
  if (rest === undefined) return undefined;
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut === rest.length - 2) return undefined;
  return { sourceId: rest.slice(0, cut), toolId: rest.slice(cut + 2) };
}
