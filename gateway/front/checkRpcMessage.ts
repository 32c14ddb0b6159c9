import {
  CallToolRequestSchema, ErrorCode as RpcCode, InitializeRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeZodError } from '../../catalog/index.js';

/** A JSON-RPC error the gateway's edge answers itself, before the SDK sees the message. */
export interface RpcRejection {
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
 * Checks one message from a client: it must be JSON-RPC 2.0 (-32600 otherwise) and the params of a
 * known request must fit its schema (-32602 with the field and what is wrong). Without this the
 * SDK answers a bad `tools/call` with -32603 and a raw schema dump. Used by /mcp and by stdio.
 */
export function checkRpcMessage(message: unknown): RpcRejection | undefined {
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
  return { code, message: message.slice(0, 500), id };
}
