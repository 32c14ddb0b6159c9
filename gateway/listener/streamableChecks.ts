import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { reusedIdMessage } from '../front/index.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest, type JSONRPCResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The streamable HTTP transport's refusals, with the SDK web-standard transport's statuses, codes
 * and words (clients and the conformance suite know them), decided from Node's request headers.
 */
export interface TransportRefusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/** Most messages in one POSTed batch (the SDK's bound). */
export const MAX_BATCH_SIZE = 100;

const refusal = (status: number, code: number, message: string): TransportRefusal => ({ status, code, message });

/** A POST must accept both answer shapes (406) and carry JSON (415). */
export function checkPostHeaders(headers: IncomingHttpHeaders): TransportRefusal | undefined {
  // Accept is a comma-separated list: a substring check is the SDK's intended semantics.
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(headers['content-type'])) {
    return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  return undefined;
}

/** A GET opens the standalone SSE stream, so it must accept one (406). */
export function checkGetHeaders(headers: IncomingHttpHeaders): TransportRefusal | undefined {
  if (headers.accept?.includes('text/event-stream')) return undefined;
  return refusal(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
}

/** A batch within the bound; a lone initialize (400 otherwise). */
export function checkMessages(messages: readonly JSONRPCMessage[], batch: boolean, initializing: boolean): TransportRefusal | undefined {
  if (batch && messages.length > MAX_BATCH_SIZE) {
    return refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  }
  if (initializing && messages.length > 1) return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  return undefined;
}

/**
 * Every refusal of a POST, in the transport's order: headers, the batch, then the session (an
 * initialize opens one). The router asks it before it builds a session for an initialize.
 */
export function checkPost(headers: IncomingHttpHeaders, body: JSONRPCMessage | JSONRPCMessage[], sessionId: string | undefined): TransportRefusal | undefined {
  const batch = Array.isArray(body);
  const messages = batch ? body : [body];
  const initializing = messages.some(isInitialize);
  return checkPostHeaders(headers) ?? checkMessages(messages, batch, initializing) ?? (initializing ? undefined : checkSession(headers, sessionId));
}

/**
 * Each request's id is new: not that of a request still running in the session (`running`), nor
 * repeated in the batch (400). A response goes to the request of its id; two at once would
 * receive each other's.
 */
export function checkRequestIds(messages: readonly JSONRPCMessage[], running: (id: RequestId) => boolean): TransportRefusal | undefined {
  const seen = new Set<RequestId>();
  for (const message of messages) {
    if (!isRequest(message)) continue;
    const reuse = running(message.id) ? 'running' : seen.has(message.id) ? 'batch' : undefined;
    if (reuse) return refusal(400, -32600, reusedIdMessage(message.id, reuse));
    seen.add(message.id);
  }
  return undefined;
}

/** A request for a session this transport does not (or no longer) serve (404). */
export const SESSION_NOT_FOUND: TransportRefusal = { status: 404, code: -32001, message: 'Session not found' };

/** Any request after initialize names this session (400 missing, 404 another) and a supported protocol version (400). */
export function checkSession(headers: IncomingHttpHeaders, sessionId: string | undefined): TransportRefusal | undefined {
  if (sessionId === undefined) return refusal(400, -32000, 'Bad Request: Server not initialized');
  const named = headers['mcp-session-id'];
  if (!named) return refusal(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  if (named !== sessionId) return SESSION_NOT_FOUND;
  const version = headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return refusal(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  return undefined;
}

/** PUT, PATCH and the rest (405). */
export const METHOD_NOT_ALLOWED: TransportRefusal = { status: 405, code: -32000, message: 'Method not allowed.', headers: { Allow: 'GET, POST, DELETE' } };

// The body reached the transport checked (checkRpcBody: every message a valid JSON-RPC message), so
// telling the kinds apart needs only their distinguishing fields, not another zod parse per message.

/** A request: a method and an id. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/** A response (result or error): an id and no method. */
export function isResponse(message: JSONRPCMessage): message is JSONRPCResponse {
  return !('method' in message);
}

/** An initialize request. */
export function isInitialize(message: JSONRPCMessage): boolean {
  return isRequest(message) && message.method === 'initialize';
}
