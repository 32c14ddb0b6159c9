import { describe, expect, it } from 'vitest';
import { CallToolRequestSchema, JSONRPCRequestSchema, JSONRPCResultResponseSchema } from '@modelcontextprotocol/sdk/types.js';
import { isPlainResultResponse, isPlainToolCall } from '../../../gateway/core/index.js';

// What the fast checks stand in for: the SDK's schemas, which the gateway runs on anything else.
const toolCallSchema = JSONRPCRequestSchema.extend({ method: CallToolRequestSchema.shape.method, params: CallToolRequestSchema.shape.params });
const call = (params: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params, ...extra });
const result = (value: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 'r-1', result: value, ...extra });

describe('the fast checks of a tools/call and of a result', () => {
  it('pass the messages every client and upstream sends, which the schemas accept too', () => {
    const plainCalls = [
      call({ name: 'mcp__arxiv__search', arguments: { query: 'crispr', limit: 5 } }),
      call({ name: 'echo' }),
      call({ name: 'echo', arguments: {}, _meta: { progressToken: 'p-1' } }),
      { ...call({ name: 'echo', arguments: { nested: [1, { a: null }] }, _meta: { progressToken: 3, client: 'x' } }), id: 'abc' },
    ];
    for (const message of plainCalls) {
      expect(isPlainToolCall(message)).toBe(true);
      expect(toolCallSchema.safeParse(message).success).toBe(true);
    }
    const plainResults = [result({ content: [{ type: 'text', text: 'hi' }] }), result({ content: [], structuredContent: { n: 1 }, isError: false }), result({}, { id: 0 }), result({ _meta: { progressToken: 1 } })];
    for (const message of plainResults) {
      expect(isPlainResultResponse(message)).toBe(true);
      expect(JSONRPCResultResponseSchema.safeParse(message).success).toBe(true);
    }
  });

  it('never pass a message the schemas refuse, nor one with task parts they treat specially: those go to the schema', () => {
    const notPlainCalls = [
      call({ name: 'echo' }, { extra: true }),
      call({ name: 'echo' }, { jsonrpc: '1.0' }),
      call({ name: 'echo' }, { id: 1.5 }),
      call({ name: 'echo' }, { id: null }),
      call({ name: 'echo' }, { id: 2 ** 60 }),
      call({ name: 'echo' }, { method: 'tools/list' }),
      call({ name: 42 }),
      call({ arguments: {} }),
      call({ name: 'echo', arguments: [1] }),
      call({ name: 'echo', arguments: 'x' }),
      call({ name: 'echo', _meta: { progressToken: 1.5 } }),
      call({ name: 'echo', _meta: 'x' }),
      call({ name: 'echo', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }),
      call({ name: 'echo', task: { ttl: 5 } }),
      call(null),
      call([]),
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e"},"__proto__":{}}'),
      null,
      'tools/call',
    ];
    for (const message of notPlainCalls) expect(isPlainToolCall(message), JSON.stringify(message)).toBe(false);
    const notPlainResults = [
      result({}, { extra: 1 }),
      result([]),
      result(null),
      result({}, { id: 1.5 }),
      result({}, { jsonrpc: '1.0' }),
      result({ _meta: { progressToken: {} } }),
      result({ _meta: [] }),
      { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} },
    ];
    for (const message of notPlainResults) expect(isPlainResultResponse(message), JSON.stringify(message)).toBe(false);
  });
});
