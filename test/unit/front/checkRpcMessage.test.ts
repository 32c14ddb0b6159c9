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
    expect(checkRpcMessage(call({ name: 'x' }, { id: 1.5 }))).toMatchObject({ code: -32600, id: null });
    expect(checkRpcMessage(call({ name: 'x' }, { jsonrpc: '1.0' }))).toMatchObject({ code: -32600 });
    expect(checkRpcMessage(call({ name: 5 }))).toMatchObject({ code: -32602, id: 7, message: expect.stringMatching(/^Invalid tools\/call params: name: /) });
    expect(checkRpcMessage(call({ name: 'x', arguments: 'a' }))).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid tools\/call params: arguments: /) });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 4, method: 'tools/call' })).toMatchObject({ code: -32602 });
    // A union of types names them all, not only its first branch's.
    expect(checkRpcMessage(call({ name: 'x', _meta: { progressToken: 1.5 } }))).toMatchObject({
      code: -32600, id: 7, message: 'Invalid request: _meta.progressToken: Invalid input: expected string or int, received number',
    });
  });

  it('checks the params of every request the gateway serves, not only tools: -32602 in words, never a schema dump', () => {
    const setLevel = checkRpcMessage({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'verbose' } });
    expect(setLevel).toMatchObject({ code: -32602, id: 2, message: expect.stringMatching(/^Invalid logging\/setLevel params: level: /) });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: {} })).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid resources\/read params: uri: /) });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 1 } })).toMatchObject({ code: -32602, id: 4 });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 5, method: 'completion/complete', params: {} })).toMatchObject({ code: -32602, id: 5 });
    for (const rejection of [setLevel]) expect(rejection!.message).not.toContain('"code"');
  });

  it('a null id is named as the problem, not blamed on the notification form', () => {
    expect(checkRpcMessage({ jsonrpc: '2.0', id: null, method: 'ping' })).toEqual({ code: -32600, id: null, message: expect.stringContaining('id must be a string or an integer') });
    // A fractional or out-of-range number is no id either: the message says so, not "id: is not a known field".
    for (const id of [1.5, 1e400, 2 ** 60]) {
      expect(checkRpcMessage({ jsonrpc: '2.0', id, method: 'tools/list' })).toEqual({ code: -32600, id: null, message: expect.stringContaining('id must be a string or an integer') });
    }
  });

  it('leaves other valid messages to the SDK, whatever their method is called', () => {
    for (const method of ['constructor', '__proto__', 'toString', 'resources/list', 'sampling/createMessage']) {
      expect(checkRpcMessage({ jsonrpc: '2.0', id: 1, method })).toBeUndefined();
    }
    expect(checkRpcMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
  });

  it('a notification sent with an id is refused with that id, saying to drop it (not "Method not found")', () => {
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 2, method: 'notifications/initialized' })).toEqual({
      code: -32600, id: 2, message: 'Invalid request: notifications/initialized is a notification; send it without an id (nothing answers a notification).',
    });
    expect(checkRpcMessage({ jsonrpc: '2.0', id: 'c', method: 'notifications/cancelled', params: { requestId: 1 } })).toMatchObject({ code: -32600, id: 'c' });
  });
});
