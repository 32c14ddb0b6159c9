import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import { ErrorCode as RpcCode } from '@modelcontextprotocol/sdk/types.js';
import { checkRpcMessage, type RpcRejection as MessageRejection } from '../front/index.js';
import type { Logger } from '../core/index.js';
import { fromHttpError, httpStatusOf } from './httpErrors.js';

/** A JSON-RPC error the /mcp edge answers itself, with its HTTP status. */
export interface RpcRejection extends MessageRejection {
  status: number;
  /** The gateway's own error code, for clients that act on it (`{code: 'unauthorized'}`). */
  data?: { code: string };
}

/** Checks a parsed /mcp body, a message or a batch of them (see checkRpcMessage). */
export function checkRpcBody(body: unknown): RpcRejection | undefined {
  // As the SDK's transport answers a body it cannot parse: an empty one is not JSON.
  if (body === undefined) return { status: 400, code: RpcCode.ParseError, message: 'Parse error: the request has no body; POST one JSON-RPC message or a batch.', id: null };
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) {
    return { status: 400, code: RpcCode.InvalidRequest, message: 'Invalid request: an empty batch is not a JSON-RPC message.', id: null };
  }
  for (const message of messages) {
    const rejection = checkRpcMessage(message);
    if (rejection) return { status: 400, ...rejection };
  }
  return undefined;
}

/** Answers a JSON-RPC error (the only shape /mcp ever answers with when it refuses); plain Node response. */
export function sendRpcError(res: ServerResponse, rejection: RpcRejection): void {
  const { status, code, message, data, id } = rejection;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The /mcp error edge: body reading errors and anything thrown become JSON-RPC errors — bad
 * JSON -32700, other refusals -32600 with their HTTP status, failures -32603 — never HTML or a stack.
 */
export function rpcErrorMiddleware(log: Logger): ErrorRequestHandler {
  // Four parameters: express knows an error handler by its arity.
  return (thrown, _req, res, _next) => answerRpcFailure(thrown, res, log);
}

/** Answers what a /mcp request threw (see rpcErrorMiddleware). */
export function answerRpcFailure(thrown: unknown, res: ServerResponse, log: Logger): void {
  const error = fromHttpError(thrown);
  if (error.code === 'internal') log.error({ err: thrown }, 'mcp request failed');
  if (res.headersSent) {
    res.end();
    return;
  }
  const parseFailed = (thrown as { type?: unknown } | undefined)?.type === 'entity.parse.failed';
  const code = parseFailed ? RpcCode.ParseError : error.code === 'internal' ? RpcCode.InternalError : RpcCode.InvalidRequest;
  sendRpcError(res, { status: httpStatusOf(error.code), code, message: parseFailed ? `Parse error: ${error.message}` : error.message, id: null });
}
