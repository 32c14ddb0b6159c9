import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { governedOutputJsonSchema, type McpToolResult } from '../../catalog/index.js';
import type { GatewayError } from '../core/index.js';
import type { GovernedTool } from '../registry/index.js';

/** A governed tool as agents see it in tools/list. */
export function toListedTool(tool: GovernedTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.envelope === 'scientific' ? { outputSchema: governedOutputJsonSchema as unknown as Tool['outputSchema'] } : {}),
    annotations: { title: tool.title, readOnlyHint: tool.idempotent, openWorldHint: true },
  };
}

/** Success: the normalized result plus invocationId, as structured content and as one text block. */
export function successResult(result: McpToolResult, invocationId: string): CallToolResult {
  const structured = { ...result, invocationId };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Failure: `isError` with the structured error and the invocationId (never a stack). */
export function failureResult(error: GatewayError, invocationId: string): CallToolResult {
  const structured = { error: error.toJSON(), invocationId };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
