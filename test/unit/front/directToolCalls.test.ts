import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerToolCallsDirectly, type ToolCallHandler } from '../../../gateway/front/directToolCalls.js';

/** A transport the test drives message by message, keeping what the server sends. */
class ScriptedTransport implements Transport {
  sessionId = 'ses-1';
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  readonly sent: Array<{ message: JSONRPCMessage; relatedRequestId?: unknown }> = [];
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage, options?: { relatedRequestId?: unknown }): Promise<void> {
    this.sent.push({ message, relatedRequestId: options?.relatedRequestId });
  }
  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

const ok: CallToolResult = { content: [{ type: 'text', text: 'done' }] };
const call = (id: number, extra: Record<string, unknown> = {}): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {}, ...extra } }) as JSONRPCMessage;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

async function connected(handle: ToolCallHandler, protocolHandle?: ToolCallHandler) {
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {}, logging: {} } });
  // What the Protocol would answer tools/call with: a call that reaches it says so.
  server.setRequestHandler((await import('@modelcontextprotocol/sdk/types.js')).CallToolRequestSchema, async (request, extra) =>
    (protocolHandle ?? (async () => ({ content: [{ type: 'text', text: 'via the Protocol' }] })))(request, extra),
  );
  const transport = new ScriptedTransport();
  await server.connect(transport);
  answerToolCallsDirectly(server, transport, handle);
  return { server, transport };
}

describe('tools/call answered in front of the SDK Protocol', () => {
  it('answers with the handler, which gets the request id, session, _meta and a working progress channel', async () => {
    let seen: { requestId: unknown; sessionId: unknown; meta: unknown } | undefined;
    const { transport } = await connected(async (_request, extra) => {
      seen = { requestId: extra.requestId, sessionId: extra.sessionId, meta: extra._meta };
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
      return ok;
    });
    transport.receive(call(7, { _meta: { progressToken: 't' } }));
    await settle();
    expect(seen).toEqual({ requestId: 7, sessionId: 'ses-1', meta: { progressToken: 't' } });
    expect(transport.sent).toEqual([
      { message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, relatedRequestId: 7 },
      { message: { jsonrpc: '2.0', id: 7, result: ok }, relatedRequestId: undefined },
    ]);
  });

  it('turns a thrown error into the JSON-RPC error the Protocol would send (code, message, data; -32603 otherwise)', async () => {
    const { transport } = await connected(async (request) => {
      if (request.params.name === 'mcp') throw new McpError(-32602, 'bad arguments', { field: 'x' });
      throw new Error('boom');
    });
    transport.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'mcp', arguments: {} } } as JSONRPCMessage);
    transport.receive(call(2));
    await settle();
    expect(transport.sent.map((s) => s.message)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'MCP error -32602: bad arguments', data: { field: 'x' } } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } },
    ]);
  });

  it('aborts the call on notifications/cancelled with the reason, and does not answer it', async () => {
    let reason: unknown;
    const { transport } = await connected(
      (_request, extra) =>
        new Promise((resolve) =>
          extra.signal.addEventListener('abort', () => {
            reason = extra.signal.reason;
            resolve(ok);
          }),
        ),
    );
    transport.receive(call(3));
    await settle();
    transport.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'user stopped' } });
    await settle();
    expect(reason).toBe('user stopped');
    expect(transport.sent).toEqual([]);
  });

  it('aborts every running call when the connection closes', async () => {
    const aborted: number[] = [];
    const { transport } = await connected(
      (request, extra) => new Promise(() => extra.signal.addEventListener('abort', () => aborted.push(Number(request.params.arguments?.n)))),
    );
    transport.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { n: 1 } } } as JSONRPCMessage);
    transport.receive({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { n: 2 } } } as JSONRPCMessage);
    await settle();
    await transport.close();
    expect(aborted.sort()).toEqual([1, 2]);
  });

  it('runs the handler after a notification that arrived just before it has been handled', async () => {
    const order: string[] = [];
    const { server, transport } = await connected(async () => {
      order.push('tools/call');
      return ok;
    });
    server.oninitialized = () => order.push('initialized');
    transport.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    transport.receive(call(4));
    await settle();
    expect(order).toEqual(['initialized', 'tools/call']);
  });

  it('leaves a call that names a task, and every other request, to the Protocol', async () => {
    const direct: unknown[] = [];
    const { transport } = await connected(async (request) => {
      direct.push(request.params.name);
      return ok;
    });
    transport.receive(call(5, { task: { ttl: 1000 } }));
    transport.receive({ jsonrpc: '2.0', id: 6, method: 'ping' });
    await settle();
    expect(direct).toEqual([]);
    const answers = transport.sent.map((s) => s.message);
    // The server declares no tasks: the Protocol refuses the task, and answers the ping.
    expect(answers).toContainEqual(expect.objectContaining({ id: 5, error: expect.objectContaining({ code: expect.any(Number) }) }));
    expect(answers).toContainEqual({ jsonrpc: '2.0', id: 6, result: {} });
  });
});
