import { ContentBlockSchema, McpError, type CallToolResult, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { describeZodError } from '../../catalog/index.js';
import { GatewayError, isPlainObject } from '../core/index.js';
import { refuseDeepResult } from './deepResults.js';

/** Keys a text block may carry and still take the fast path (others go through the SDK's schema, which strips unknown ones). */
const PLAIN_TEXT_KEYS = new Set(['type', 'text']);

/**
 * Checks an upstream's tools/call result as CallToolResultSchema would (content blocks, an object
 * `structuredContent`, a boolean `isError`, `content` defaulting to []), returning the result;
 * a malformed one fails as `upstream_error` naming the field, never reaching the broker.
 */
export function parseCallToolResult(raw: Record<string, unknown>, upstreamId: string): CallToolResult {
  const malformed = (field: string, problem: string) =>
    new GatewayError('upstream_error', `${upstreamId} returned a malformed tools/call result: ${field}: ${problem}`);
  if (!isPlainObject(raw)) throw malformed('result', 'expected an object');
  const { content = [], structuredContent, isError, _meta } = refuseDeepResult(raw, upstreamId, 'tools/call');
  if (!Array.isArray(content)) throw malformed('content', 'expected an array of content blocks');
  if (structuredContent !== undefined && !isPlainObject(structuredContent)) throw malformed('structuredContent', 'expected an object');
  if (isError !== undefined && typeof isError !== 'boolean') throw malformed('isError', 'expected a boolean');
  if (_meta !== undefined && !isPlainObject(_meta)) throw malformed('_meta', 'expected an object');
  let blocks: unknown[] = content;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (isPlainText(block)) continue;
    const parsed = ContentBlockSchema.safeParse(block);
    if (!parsed.success) {
      const { field, message } = describeZodError(parsed.error);
      throw malformed(`content[${i}]${field ? `.${field}` : ''}`, message);
    }
    // Copied on the first block the schema changed (unknown keys stripped), as the SDK's parse would.
    if (blocks === content) blocks = content.slice();
    blocks[i] = parsed.data satisfies ContentBlock;
  }
  return (blocks === content && raw.content !== undefined ? raw : { ...raw, content: blocks }) as CallToolResult;
}

function isPlainText(block: unknown): boolean {
  if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
  for (const key in block) if (!PLAIN_TEXT_KEYS.has(key)) return false;
  return true;
}

/**
 * The SDK client checks a result against the tool's outputSchema after the answer arrived, and
 * reports a mismatch as an McpError: worded as it is, it would read as an error the server sent.
 */
const OUTPUT_SCHEMA_CHECKS = [
  /^MCP error -?\d+: Structured content does not match the tool's output schema: (.*)$/s,
  /^MCP error -?\d+: Tool .* has an output schema but (did not return structured content)$/s,
  /^MCP error -?\d+: Failed to validate structured content: (.*)$/s,
];

/** An SDK output-schema refusal as `upstream_error` naming the tool's own schema; undefined for anything else. */
export function outputSchemaRefusal(error: unknown, upstreamId: string, tool: string): GatewayError | undefined {
  if (!(error instanceof McpError)) return undefined;
  const detail = OUTPUT_SCHEMA_CHECKS.map((check) => check.exec(error.message)?.[1]).find((found) => found !== undefined);
  if (detail === undefined) return undefined;
  return new GatewayError('upstream_error', `${upstreamId}'s result for ${tool} does not match the outputSchema the tool declares: ${detail}`);
}
