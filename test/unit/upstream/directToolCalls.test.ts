import { describe, expect, it, vi } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, type JSONRPCMessage, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { sharedSchemaValidator } from '../../../gateway/core/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DirectToolCalls, ToolRules, protocolRequestIds } from '../../../gateway/upstream/directToolCalls.js';

/** The client side of a connection whose server the test plays message by message. */
class ScriptedConnection implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  readonly sent: JSONRPCMessage[] = [];
  /** What reached the Protocol's handlers (everything the direct calls did not claim). */
  readonly toProtocol: JSONRPCMessage[] = [];
  protocolClosed = false;
  constructor() {
    this.onmessage = (message) => this.toProtocol.push(message);
    this.onclose = () => (this.protocolClosed = true);
  }
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  answer(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
  lastCallId(): number {
    return (this.sent.findLast((m) => 'method' in m && m.method === 'tools/call') as { id: number }).id;
  }
}

function connection(tools: Tool[] = []) {
  const transport = new ScriptedConnection();
  const rules = new ToolRules(sharedSchemaValidator);
  rules.learn(tools);
  let next = 100;
  return { transport, calls: new DirectToolCalls(transport, rules, () => next++) };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('tools/call written in front of the SDK client Protocol', () => {
  it("takes its ids from the client Protocol's counter, so the server sees one sequence of integers", async () => {
    const client = new Client({ name: 'c', version: '1' });
    const ids = protocolRequestIds(client);
    expect([ids(), ids()]).toEqual([0, 1]);
    expect((client as unknown as { _requestMessageId: number })._requestMessageId).toBe(2);
    const strings = protocolRequestIds({});
    expect([strings(), strings()]).toEqual(['scigate-1', 'scigate-2']);
  });

  it('sends the call with its own id, resolves with the answer and leaves other messages to the Protocol', async () => {
    const { transport, calls } = connection();
    // No timeout of its own: the caller's signal decides.
    const result = calls.call('echo', { text: 'hi' }, {});
    const id = transport.lastCallId();
    expect(transport.sent).toEqual([{ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }]);
    expect(id).toBe(100);
    transport.answer({ jsonrpc: '2.0', id: 0, result: {} });
    transport.answer({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.answer({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'hi' }] } });
    await expect(result).resolves.toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(transport.toProtocol).toEqual([{ jsonrpc: '2.0', id: 0, result: {} }, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('without a timeout of its own, waits for as long as the answer takes (the caller\'s signal decides)', async () => {
    vi.useFakeTimers();
    try {
      const { transport, calls } = connection();
      const result = calls.call('slow', {}, {});
      await vi.advanceTimersByTimeAsync(24 * 3600_000);
      transport.answer({ jsonrpc: '2.0', id: transport.lastCallId(), result: { content: [] } });
      await expect(result).resolves.toEqual({ content: [] });
      expect(transport.sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects with the McpError the server answered', async () => {
    const { transport, calls } = connection();
    const result = calls.call('echo', {}, { timeoutMs: 1000 });
    transport.answer({ jsonrpc: '2.0', id: transport.lastCallId(), error: { code: -32602, message: 'no such tool', data: { tool: 'echo' } } });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: 'MCP error -32602: no such tool', data: { tool: 'echo' } });
  });

  it('relays progress for its token, without the token, and no other progress', async () => {
    const { transport, calls } = connection();
    const seen: unknown[] = [];
    const result = calls.call('slow', {}, { timeoutMs: 1000, onProgress: (p) => seen.push(p) });
    const id = transport.lastCallId();
    expect(transport.sent[0]).toMatchObject({ params: { _meta: { progressToken: id } } });
    transport.answer({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2, message: 'half' } });
    transport.answer({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } });
    transport.answer({ jsonrpc: '2.0', id, result: { content: [] } });
    await result;
    expect(seen).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    expect(transport.toProtocol).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } }]);
  });

  it('times out as the SDK does: notifications/cancelled to the server, McpError -32001; the late answer goes to the Protocol', async () => {
    const { transport, calls } = connection();
    const result = calls.call('hang', {}, { timeoutMs: 20 });
    const id = transport.lastCallId();
    await expect(result).rejects.toMatchObject({ code: -32001, message: 'MCP error -32001: Request timed out' });
    expect(transport.sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'McpError: MCP error -32001: Request timed out' } });
    transport.answer({ jsonrpc: '2.0', id, result: { content: [] } });
    expect(transport.toProtocol).toEqual([{ jsonrpc: '2.0', id, result: { content: [] } }]);
  });

  it('cancels on the signal with its reason, telling the server', async () => {
    const { transport, calls } = connection();
    const controller = new AbortController();
    const result = calls.call('hang', {}, { timeoutMs: 1000, signal: controller.signal });
    controller.abort('the agent cancelled');
    await expect(result).rejects.toMatchObject({ code: -32001, message: 'MCP error -32001: the agent cancelled' });
    expect(transport.sent[1]).toMatchObject({ method: 'notifications/cancelled', params: { reason: 'the agent cancelled' } });
    await expect(calls.call('x', {}, { timeoutMs: 1000, signal: controller.signal })).rejects.toBe('the agent cancelled');
  });

  it('fails every waiting call when the connection closes, then lets the Protocol close', async () => {
    const { transport, calls } = connection();
    const first = calls.call('a', {}, { timeoutMs: 1000 });
    const second = calls.call('b', {}, { timeoutMs: 1000 });
    await tick();
    await transport.close();
    await expect(first).rejects.toMatchObject({ code: -32000, message: 'MCP error -32000: Connection closed' });
    await expect(second).rejects.toMatchObject({ code: -32000 });
    expect(transport.protocolClosed).toBe(true);
  });

  it("checks the tool's outputSchema and refuses a tool that requires tasks, in the SDK client's words", async () => {
    const typed: Tool = { name: 'typed', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
    const taskOnly: Tool = { name: 'job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } };
    const { transport, calls } = connection([typed, taskOnly]);
    const answered = async (result: Record<string, unknown>) => {
      const call = calls.call('typed', {}, { timeoutMs: 1000 });
      transport.answer({ jsonrpc: '2.0', id: transport.lastCallId(), result });
      return call;
    };
    await expect(answered({ content: [], structuredContent: { n: 1 } })).resolves.toMatchObject({ structuredContent: { n: 1 } });
    await expect(answered({ content: [], structuredContent: { n: 'one' } })).rejects.toThrow(/Structured content does not match the tool's output schema: /);
    await expect(answered({ content: [] })).rejects.toThrow(/Tool typed has an output schema but did not return structured content/);
    await expect(answered({ content: [], isError: true })).resolves.toMatchObject({ isError: true });
    await expect(calls.call('job', {}, { timeoutMs: 1000 })).rejects.toThrow(/Tool "job" requires task-based execution/);
  });

  it('a tool name listed twice is checked as its first listing, the one the catalog exposes', async () => {
    const first: Tool = { name: 'twice', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
    const second: Tool = { name: 'twice', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] } };
    const { transport, calls } = connection([first, second]);
    const call = calls.call('twice', {}, { timeoutMs: 1000 });
    transport.answer({ jsonrpc: '2.0', id: transport.lastCallId(), result: { content: [], structuredContent: { n: 1 } } });
    await expect(call).resolves.toMatchObject({ structuredContent: { n: 1 } });
  });
});
