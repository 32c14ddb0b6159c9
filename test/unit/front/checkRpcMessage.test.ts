import { describe, expect, it, vi } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkRpcMessage } from '../../../gateway/front/index.js';

const call = (params: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params, ...extra });

describe('checkRpcMessage', () => {
  it('passes a valid tools/call, tools/list, ping and initialize in one parse (not the JSON-RPC union again)', () => {
    const union = vi.spyOn(JSONRPCMessageSchema, 'safeParse');
    try {
      expect(checkRpcMessage(call({ name: 'mcp__x__echo', arguments: { text: 'hi' }, _meta: { progressToken: 1 } }))).toBeUndefined();
      expect(checkRpcMessage({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { cursor: 'c' } })).toBeUndefined();
      expect(checkRpcMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
      expect(checkRpcMessage({
        jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      })).toBeUndefined();
      expect(union).not.toHaveBeenCalled();
    } finally {
      union.mockRestore();
    }
  });

  it('still tells a bad envelope (-32600) from bad params (-32602), in words', () => {
    expect(checkRpcMessage(call({ name: 'x' }, { extra: true }))).toMatchObject({ code: -32600, id: 7 });
    expect(checkRpcMessage(call({ name: 'x' }, { id: 1.5 }))).toMatchObject({ code: -32600, id: 1.5 });
    expect(checkRpcMessage(call({ name: 'x' }, { jsonrpc: '1.0' }))).toMatchObject({ code: -32600 });
    expect(checkRpcMessage(call({ name: 5 }))).toMatchObject({ code: -32602, id: 7, message: expect.stringMatching(/^Invalid tools\/call params: name: /) });
    expect(checkRpcMessage(call({ name: 'x', arguments: 'a' }))).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid tools\/call params: arguments: /) });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 4, method: 'tools/call' })).toMatchObject({ code: -32602 });
  });

  it('leaves other valid messages to the SDK, whatever their method is called', () => {
    for (const method of ['constructor', '__proto__', 'toString', 'resources/list']) {
      expect(checkRpcMessage({ jsonrpc: '2.0', id: 1, method })).toBeUndefined();
    }
    expect(checkRpcMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
  });
});
