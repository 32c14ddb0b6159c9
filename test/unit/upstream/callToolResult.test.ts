import { describe, expect, it } from 'vitest';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../../../gateway/core/index.js';
import { outputSchemaRefusal, parseCallToolResult } from '../../../gateway/upstream/callToolResult.js';

const parse = (raw: Record<string, unknown>) => parseCallToolResult(raw, 'srv');

function refusal(raw: Record<string, unknown>): GatewayError {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('accepted a malformed result');
}

describe('parseCallToolResult: the SDK schema\'s guarantees, one check per call', () => {
  it('returns a plain text result as it came, without copying it', () => {
    const raw = { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 }, isError: false, _meta: { t: 1 } };
    expect(parse(raw)).toBe(raw);
  });

  it('refuses a result that is not an object (the client no longer parses it first)', () => {
    for (const raw of [null, 'text', [], 3]) {
      expect(refusal(raw as unknown as Record<string, unknown>).message).toBe('srv returned a malformed tools/call result: result: expected an object');
    }
  });

  it('defaults a missing content to [] as CallToolResultSchema does', () => {
    expect(parse({ structuredContent: { n: 1 } })).toEqual(CallToolResultSchema.parse({ structuredContent: { n: 1 } }));
  });

  it('checks other blocks with the SDK schema: same output as its parse, unknown keys stripped', () => {
    const raw = {
      content: [
        { type: 'text', text: 'a', annotations: { priority: 1 }, extra: 'dropped' },
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
      ],
    };
    const parsed = parse(raw);
    expect(parsed).toEqual(CallToolResultSchema.parse(raw));
    expect(parsed.content[0]).not.toHaveProperty('extra');
    expect(raw.content[0]).toHaveProperty('extra');
  });

  it('refuses malformed results as upstream_error naming the field, where the SDK schema refuses them', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ content: 'text' }, /content: expected an array/],
      [{ content: [{ type: 'text', text: 42 }] }, /content\[0\]\.text/],
      [{ content: [{ type: 'text', text: 'ok' }, { type: 'video', url: 'x' }] }, /content\[1\]/],
      [{ content: [null] }, /content\[0\]/],
      [{ content: [], structuredContent: [1, 2] }, /structuredContent: expected an object/],
      [{ content: [], isError: 'yes' }, /isError: expected a boolean/],
      [{ content: [], _meta: 'm' }, /_meta: expected an object/],
    ];
    for (const [raw, field] of cases) {
      expect(CallToolResultSchema.safeParse(raw).success).toBe(false);
      const error = refusal(raw);
      expect(error.code).toBe('upstream_error');
      expect(error.message).toMatch(/^srv returned a malformed tools\/call result: /);
      expect(error.message).toMatch(field);
    }
  });
});

describe("outputSchemaRefusal: the SDK client's output-schema checks, worded as the result's fault", () => {
  it('names the tool and the schema for both checks, and leaves every other error alone', () => {
    const mismatch = new McpError(ErrorCode.InvalidParams, "Structured content does not match the tool's output schema: data/n must be number");
    expect(outputSchemaRefusal(mismatch, 'notes', 'count')).toMatchObject({
      code: 'upstream_error',
      message: "notes's result for count does not match the outputSchema the tool declares: data/n must be number",
    });
    const missing = new McpError(ErrorCode.InvalidRequest, 'Tool count has an output schema but did not return structured content');
    expect(outputSchemaRefusal(missing, 'notes', 'count')?.message).toBe("notes's result for count does not match the outputSchema the tool declares: did not return structured content");
    const crashed = new McpError(ErrorCode.InvalidParams, 'Failed to validate structured content: Maximum call stack size exceeded');
    expect(outputSchemaRefusal(crashed, 'notes', 'count')?.message).toBe("notes's result for count does not match the outputSchema the tool declares: Maximum call stack size exceeded");
    expect(outputSchemaRefusal(new McpError(ErrorCode.InvalidParams, 'Unknown tool: count'), 'notes', 'count')).toBeUndefined();
    expect(outputSchemaRefusal(new Error("Structured content does not match the tool's output schema: x"), 'notes', 'count')).toBeUndefined();
  });
});
