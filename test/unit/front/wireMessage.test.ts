import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { serializeForWire } from '../../../gateway/front/index.js';

/** A value JSON.stringify cannot write: nested past the stack. */
function tooDeep(): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 0; i < 200_000; i += 1) node = (node.a = {}) as Record<string, unknown>;
  return root;
}

describe('serializeForWire: what a transport sends', () => {
  it('is the JSON of any message that serializes', () => {
    const message = { jsonrpc: '2.0', id: 7, result: { content: [] } } as JSONRPCMessage;
    expect(serializeForWire(message)).toBe(JSON.stringify(message));
  });

  it('turns a response that cannot be serialized into an internal error for the same id, naming the cause', () => {
    const answer = JSON.parse(serializeForWire({ jsonrpc: '2.0', id: 'r-1', result: { _meta: tooDeep() } } as JSONRPCMessage)!);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 'r-1',
      error: { code: -32603, message: expect.stringMatching(/^scigate could not send this answer \(Maximum call stack size exceeded\); if it relays a server's result, that result is malformed\.$/) },
    });
  });

  it('drops a notification or a request that cannot be serialized (nobody waits for an answer to it)', () => {
    expect(serializeForWire({ jsonrpc: '2.0', method: 'notifications/message', params: { data: tooDeep() } } as JSONRPCMessage)).toBeUndefined();
    expect(serializeForWire({ jsonrpc: '2.0', id: 3, method: 'elicitation/create', params: { data: tooDeep() } } as JSONRPCMessage)).toBeUndefined();
  });
});
