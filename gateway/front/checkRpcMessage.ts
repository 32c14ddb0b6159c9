import {
  CallToolRequestSchema, CompleteRequestSchema, ErrorCode as RpcCode, GetPromptRequestSchema, InitializeRequestSchema, JSONRPCMessageSchema, JSONRPCRequestSchema,
  ListPromptsRequestSchema, ListResourceTemplatesRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, PingRequestSchema, ReadResourceRequestSchema,
  SetLevelRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeZodError } from '../../catalog/index.js';
import { isPlainToolCall } from '../core/index.js';

/** A JSON-RPC error the gateway's edge answers itself, before the SDK sees the message. */
export interface RpcRejection {
  code: number;
  message: string;
  id: string | number | null;
}

/**
 * The requests the gateway serves, whose params are checked here so a bad one is -32602 in words:
 * the SDK answers a request its schema refuses with -32603 and the schema's raw issue dump.
 */
const KNOWN_REQUESTS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
};

interface Checker {
  safeParse(input: unknown): { success: boolean; error?: unknown };
}

/** Each known request's params schema, by method (a Map: a method named `constructor` finds nothing). */
const PARAMS_SCHEMAS = new Map<string, Checker>(Object.entries(KNOWN_REQUESTS));

/**
 * Each known request as one schema, envelope and params together: a valid message (nearly every
 * one) passes in a single parse instead of two. Passing it implies passing both parses below.
 */
const WHOLE_REQUESTS = new Map<string, Checker>(
  Object.entries(KNOWN_REQUESTS).map(([method, schema]) => [method, JSONRPCRequestSchema.extend({ method: schema.shape.method, params: schema.shape.params })]),
);

/**
 * Checks one message from a client: it must be JSON-RPC 2.0 (-32600 otherwise) and the params of a
 * known request must fit its schema (-32602 with the field and what is wrong). Without this the
 * SDK answers a bad `tools/call` with -32603 and a raw schema dump. Used by /mcp and by stdio.
 */
export function checkRpcMessage(message: unknown): RpcRejection | undefined {
  if (isPlainToolCall(message)) return undefined;
  const method = typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
  if (typeof method === 'string' && WHOLE_REQUESTS.get(method)?.safeParse(message).success) return undefined;
  const id = idOf(message);
  if (id === null && typeof message === 'object' && message !== null && 'id' in message && typeof method === 'string') {
    // Zod's union would blame the notification branch ("id: is not a known field").
    return reject(RpcCode.InvalidRequest, 'Invalid request: id must be a string or an integer (a notification has no id at all).', null);
  }
  if (id !== null && typeof method === 'string' && method.startsWith('notifications/')) {
    // The SDK would answer -32601 "Method not found" for a method that exists, as a notification;
    // a client that sent notifications/initialized so would then hear its handshake is unfinished.
    return reject(RpcCode.InvalidRequest, `Invalid request: ${method.slice(0, 100)} is a notification; send it without an id (nothing answers a notification).`, id);
  }
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) return reject(RpcCode.InvalidRequest, `Invalid request: ${describe(parsed.error)}`, id);
  const schema = typeof method === 'string' && id !== null ? PARAMS_SCHEMAS.get(method) : undefined;
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

/** The message's id if it is one JSON-RPC allows here (a string or an integer), else null. */
function idOf(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : null;
}

/**
 * Why a request is refused whose id is that of a request still running in the session (`running`)
 * or repeated in its batch: its response would go to the other request's caller. MCP forbids it.
 */
export function reusedIdMessage(id: string | number, reuse: 'running' | 'batch'): string {
  const where = reuse === 'running' ? 'belongs to a request still running in this session' : 'is used twice in this batch';
  return `Invalid Request: id ${JSON.stringify(id).slice(0, 80)} ${where}; send each request with a new id.`;
}

function reject(code: number, message: string, id: string | number | null): RpcRejection {
  return { code, message: message.slice(0, 500), id };
}
