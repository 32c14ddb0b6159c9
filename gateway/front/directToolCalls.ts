import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode, McpError, RELATED_TASK_META_KEY,
  type CallToolRequest, type CallToolResult, type JSONRPCMessage, type MessageExtraInfo, type RequestId, type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';

/** What answers one tools/call: the session server's handler, given the SDK's per-request context. */
export type ToolCallHandler = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<CallToolResult>;

/**
 * Answers tools/call itself, in front of the SDK Protocol that `server.connect` put on the
 * transport; every other message still goes to the Protocol. It does for tools/call what the
 * Protocol does for any request (an abort signal that `notifications/cancelled` and the session's
 * close abort, the handler's context, a response or a JSON-RPC error, nothing once cancelled), but
 * without the per-message work the Protocol spends on every call: three zod type guards over the
 * whole message, its maps and the closures of an `extra` built for task features the gateway does
 * not declare. A call that names a task goes to the Protocol, which refuses it as before.
 * Call after `server.connect(transport)`.
 */
export function answerToolCallsDirectly(server: Server, transport: Transport, handle: ToolCallHandler): void {
  const running = new Map<RequestId, AbortController>();
  const protocolMessage = transport.onmessage;
  const protocolClose = transport.onclose;
  transport.onmessage = (message, extra) => {
    if (isPlainToolCall(message)) return void answer(message, extra);
    if (isCancellation(message)) running.get(message.params.requestId)?.abort(message.params.reason);
    protocolMessage?.(message, extra);
  };
  transport.onclose = () => {
    // As the Protocol aborts its own handlers when the connection closes.
    for (const controller of running.values()) controller.abort();
    running.clear();
    protocolClose?.();
  };

  async function answer(request: CallToolRequest & { id: RequestId }, info: MessageExtraInfo | undefined): Promise<void> {
    const id = request.id;
    const controller = new AbortController();
    running.set(id, controller);
    const signal = controller.signal;
    const extra: RequestHandlerExtra<ServerRequest, ServerNotification> = {
      signal,
      sessionId: transport.sessionId,
      requestId: id,
      _meta: request.params._meta,
      authInfo: info?.authInfo,
      requestInfo: info?.requestInfo,
      sendNotification: async (notification) => {
        if (!signal.aborted) await server.notification(notification, { relatedRequestId: id });
      },
      sendRequest: async (r, schema, options) => {
        if (signal.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
        return server.request(r, schema, { ...options, relatedRequestId: id });
      },
    };
    let response: JSONRPCMessage;
    try {
      // One microtask later, as the Protocol runs every handler: a notifications/initialized that
      // arrived just before (the same chunk of a stdio client) has had its handler run first.
      await Promise.resolve();
      response = { jsonrpc: '2.0', id, result: await handle(request, extra) };
    } catch (thrown) {
      const error = thrown as { code?: unknown; message?: string; data?: unknown };
      response = {
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError,
          message: error.message ?? 'Internal error',
          ...(error.data !== undefined ? { data: error.data } : {}),
        },
      };
    }
    // A cancelled request is not answered (the client forgot it), as the Protocol does.
    if (running.get(id) === controller) running.delete(id);
    if (signal.aborted) return;
    await transport.send(response).catch((error: unknown) => server.onerror?.(new Error(`Failed to send response: ${String(error)}`)));
  }
}

function isPlainToolCall(message: JSONRPCMessage): message is CallToolRequest & JSONRPCMessage & { id: RequestId } {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return false;
  const params = message.params as CallToolRequest['params'] | undefined;
  return params !== undefined && !('task' in params) && params._meta?.[RELATED_TASK_META_KEY] === undefined;
}

function isCancellation(message: JSONRPCMessage): message is JSONRPCMessage & { params: { requestId: RequestId; reason?: string } } {
  return 'method' in message && message.method === 'notifications/cancelled' && !('id' in message) && message.params?.requestId !== undefined;
}
