/** Agents see governed tools as `mcp__<sourceId>__<toolId>`, or `<sourceId>__<toolId>` with the short prefix. */
export type ToolPrefix = 'mcp' | 'short';

/** Most MCP clients and model providers reject longer tool names. */
export const MAX_TOOL_NAME_CHARS = 64;

/** The name agents see for a source's tool. */
export function governedToolName(sourceId: string, toolId: string, prefix: ToolPrefix = 'mcp'): string {
  return prefix === 'mcp' ? `mcp__${sourceId}__${toolId}` : `${sourceId}__${toolId}`;
}

/**
 * The readable part of an agent-facing name: lower case, `[a-z0-9_-]` only, runs of `_` kept single
 * so `__` stays the separator between source and tool. Empty when nothing readable is left.
 */
export function readableNamePart(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}
