import type { ErrorRequestHandler, Response } from 'express';
import {
  CallToolRequestSchema, ErrorCode as RpcCode, InitializeRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeZodError } from '../../catalog/index.js';
import type { Logger } from '../core/index.js';
import { fromHttpError, httpStatusOf } from './httpErrors.js';

/** A JSON-RPC error the /mcp edge answers itself, before the SDK transport sees the message. */
export interface RpcRejection {
  status: number;
  code: number;
  message: string;
  id: string | number | null;
}

/** The params of the requests the gateway serves, checked here so a bad one is -32602 in words. */
const PARAMS_SCHEMAS: Record<string, { safeParse(input: unknown): { success: boolean; error?: unknown } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/**
 * Checks a parsed /mcp body: every message must be JSON-RPC 2.0 (-32600 otherwise) and the params
 * of a known request must fit its schema (-32602 with the field and what is wrong). Without this
 * the SDK answers a bad `tools/call` with -32603 and a raw schema dump.
 */
export function checkRpcBody(body: unknown): RpcRejection | undefined {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return reject(RpcCode.InvalidRequest, 'Invalid request: an empty batch is not a JSON-RPC message.', null);
  for (const message of messages) {
    const rejection = checkMessage(message);
    if (rejection) return rejection;
  }
  return undefined;
}

function checkMessage(message: unknown): RpcRejection | undefined {
  const id = idOf(message);
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) return reject(RpcCode.InvalidRequest, `Invalid request: ${describe(parsed.error)}`, id);
  const method = (message as { method?: unknown }).method;
  const schema = typeof method === 'string' && id !== null ? PARAMS_SCHEMAS[method] : undefined;
  const checked = schema?.safeParse(message);
  if (!checked || checked.success) return undefined;
  return reject(RpcCode.InvalidParams, `Invalid ${String(method)} params: ${describe(checked.error)}`, id);
}

/** "field: what is wrong", with the `params.` prefix dropped because the message names them. */
function describe(error: unknown): string {
  const { field, message } = describeZodError(error as z.ZodError);
  const shown = field.replace(/^params\.?/, '');
  return shown ? `${shown}: ${message}` : message;
}

function idOf(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function reject(code: number, message: string, id: string | number | null): RpcRejection {
  return { status: 400, code, message: message.slice(0, 500), id };
}

/** Answers a JSON-RPC error (the only shape /mcp ever answers with when it refuses). */
export function sendRpcError(res: Response, rejection: RpcRejection): void {
  res.status(rejection.status).json({ jsonrpc: '2.0', error: { code: rejection.code, message: rejection.message }, id: rejection.id });
}

/**
 * The /mcp error edge: body reading errors and anything thrown become JSON-RPC errors — bad
 * JSON -32700, other refusals -32600 with their HTTP status, failures -32603 — never HTML or a stack.
 */
export function rpcErrorMiddleware(log: Logger): ErrorRequestHandler {
  return (thrown, _req, res, _next) => {
    const error = fromHttpError(thrown);
    if (error.code === 'internal') log.error({ err: thrown }, 'mcp request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    const parseFailed = (thrown as { type?: unknown } | undefined)?.type === 'entity.parse.failed';
    const code = parseFailed ? RpcCode.ParseError : error.code === 'internal' ? RpcCode.InternalError : RpcCode.InvalidRequest;
    sendRpcError(res, { status: httpStatusOf(error.code), code, message: parseFailed ? `Parse error: ${error.message}` : error.message, id: null });
  };
}
