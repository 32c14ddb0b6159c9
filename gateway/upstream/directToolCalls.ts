import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage, type Progress, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export interface DirectCallOptions {
  /** Aborting it cancels the call: the server gets `notifications/cancelled`. */
  signal?: AbortSignal;
  /** The call's own timeout, cancelling it the same way (absent: none; the signal decides). */
  timeoutMs?: number;
  onProgress?: (progress: Progress) => void;
}

interface Pending {
  settle: (message: JSONRPCMessage | Error) => void;
  onProgress?: (progress: Progress) => void;
}

/**
 * Request ids taken from the client Protocol's own counter (`_requestMessageId`, SDK 1.32): a server
 * sees the same integer ids as before (some accept no other kind), and the Protocol never issues an
 * id taken here. Should a later SDK lose the field, ids become strings of their own.
 */
export function protocolRequestIds(protocol: object): () => RequestId {
  const counter = protocol as { _requestMessageId?: unknown };
  if (typeof counter._requestMessageId !== 'number') {
    let sent = 0;
    return () => `scigate-${++sent}`;
  }
  return () => (counter._requestMessageId as number)++;
}

/**
 * tools/call written on an upstream connection's transport by the gateway itself, in front of the
 * SDK client's Protocol, which keeps everything else (initialize, lists, the server's own requests
 * and notifications). It does what the client's callTool does — progress, a timeout, cancellation
 * with `notifications/cancelled`, a JSON-RPC error as McpError, every waiting call failed when the
 * connection closes, and the tool's outputSchema and task guard (ToolRules) — without the
 * Protocol's zod type guards over every message, its maps and its per-request closures.
 * Install once the client is connected.
 */
export class DirectToolCalls {
  private readonly pending = new Map<RequestId, Pending>();

  constructor(
    private readonly transport: Transport,
    private readonly rules: ToolRules,
    private readonly nextId: () => RequestId,
  ) {
    const protocolMessage = transport.onmessage;
    const protocolClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (!this.claimed(message)) protocolMessage?.(message, extra);
    };
    transport.onclose = () => {
      for (const call of [...this.pending.values()]) call.settle(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
      protocolClose?.();
    };
  }

  /** Calls a tool; rejects as the SDK client's callTool would (McpError, or the signal's reason as one). */
  async call(name: string, args: Record<string, unknown>, options: DirectCallOptions): Promise<Record<string, unknown>> {
    this.rules.refuseUnlessCallable(name);
    options.signal?.throwIfAborted();
    const id = this.nextId();
    const params = { name, arguments: args, ...(options.onProgress ? { _meta: { progressToken: id } } : {}) };
    const response = await new Promise<JSONRPCMessage>((resolve, reject) => {
      const cancel = (reason: unknown) => {
        settle(reason instanceof McpError ? reason : new McpError(ErrorCode.RequestTimeout, String(reason)));
        void this.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } }).catch(() => {});
      };
      const onAbort = () => cancel(options.signal!.reason);
      const timeoutMs = options.timeoutMs;
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => cancel(McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })), timeoutMs);
      const settle = (outcome: JSONRPCMessage | Error) => {
        if (this.pending.get(id)?.settle !== settle) return;
        this.pending.delete(id);
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      this.pending.set(id, { settle, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params }).catch((error: unknown) => settle(error instanceof Error ? error : new Error(String(error))));
    });
    if ('error' in response) throw McpError.fromError(response.error.code, response.error.message, response.error.data);
    const result = (response as { result: Record<string, unknown> }).result;
    this.rules.checkOutput(name, result);
    return result;
  }

  /** Handles a response to, or progress of, a call sent here; false for any other message. */
  private claimed(message: JSONRPCMessage): boolean {
    if ('id' in message && !('method' in message)) {
      // One that timed out or was cancelled goes on to the Protocol, which reports an unknown id as before.
      const call = message.id === null || message.id === undefined ? undefined : this.pending.get(message.id);
      call?.settle(message);
      return call !== undefined;
    }
    if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message) return false;
    const { progressToken, ...progress } = (message.params ?? {}) as Progress & { progressToken?: RequestId };
    const call = progressToken === undefined ? undefined : this.pending.get(progressToken);
    call?.onProgress?.(progress);
    return call !== undefined;
  }
}

/**
 * What an upstream's tools declare that a call's result must meet, learned from its tools/list as
 * the SDK client learns it: the outputSchema its structuredContent is checked against (in the SDK
 * client's words, which callToolResult.ts recognizes), and the tools that require task-based
 * execution, which a plain call cannot use. Kept across reconnections of the same server.
 */
export class ToolRules {
  private outputs = new Map<string, JsonSchemaValidator<unknown>>();
  private taskOnly = new Set<string>();

  constructor(private readonly validators: jsonSchemaValidator) {}

  learn(listed: readonly Tool[]): void {
    // A name listed twice is its first listing, the one the catalog exposes (deriveCustomTools).
    const tools = listed.filter((tool, i) => listed.findIndex((t) => t.name === tool.name) === i);
    this.outputs = new Map(tools.flatMap((t) => (t.outputSchema ? [[t.name, this.validators.getValidator(t.outputSchema as JsonSchemaType)] as const] : [])));
    this.taskOnly = new Set(tools.filter((t) => t.execution?.taskSupport === 'required').map((t) => t.name));
  }

  refuseUnlessCallable(name: string): void {
    if (this.taskOnly.has(name)) {
      throw new McpError(ErrorCode.InvalidRequest, `Tool "${name}" requires task-based execution. Use client.experimental.tasks.callToolStream() instead.`);
    }
  }

  checkOutput(name: string, result: Record<string, unknown>): void {
    const validate = this.outputs.get(name);
    if (!validate) return;
    if (!result.structuredContent && !result.isError) {
      throw new McpError(ErrorCode.InvalidRequest, `Tool ${name} has an output schema but did not return structured content`);
    }
    if (!result.structuredContent) return;
    let verdict: ReturnType<JsonSchemaValidator<unknown>>;
    try {
      verdict = validate(result.structuredContent);
    } catch (error) {
      throw new McpError(ErrorCode.InvalidParams, `Failed to validate structured content: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!verdict.valid) throw new McpError(ErrorCode.InvalidParams, `Structured content does not match the tool's output schema: ${verdict.errorMessage}`);
  }
}
