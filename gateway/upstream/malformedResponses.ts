import { randomUUID } from 'node:crypto';
import { ErrorCode, JSONRPCErrorResponseSchema, JSONRPCResultResponseSchema, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeZodError } from '../../catalog/index.js';
import { GatewayError, isPlainObject, isPlainResultResponse } from '../core/index.js';

/** Marks the error responses made here; random per process, so no server can send one. */
const MARK = randomUUID();

/**
 * The answer to a request that the schema refused: a message with the request's id and no method,
 * whose `result` is not an object or whose `error` is not `{code, message}`. A transport drops a
 * message it cannot parse, so its request would wait until its timeout, then read as a server that
 * did not answer (and count towards restarting it). Instead it becomes an error response for that
 * id saying what was wrong, which `toUpstreamError` recognizes by its mark: the request fails at
 * once, in those words. Undefined for anything that answers no request.
 */
export function malformedResponse(parsed: unknown, upstreamId: string): JSONRPCMessage | undefined {
  if (!isPlainObject(parsed) || 'method' in parsed) return undefined;
  const { id } = parsed;
  if ((typeof id !== 'string' && !Number.isSafeInteger(id)) || isPlainResultResponse(parsed)) return undefined;
  const check = ('error' in parsed ? JSONRPCErrorResponseSchema : JSONRPCResultResponseSchema).safeParse(parsed);
  if (check.success) return undefined;
  const { field, message } = describeZodError(check.error);
  return {
    jsonrpc: '2.0',
    id: id as string | number,
    error: {
      code: ErrorCode.InternalError,
      message: `${upstreamId} answered with a malformed JSON-RPC response (${field ? `${field}: ` : ''}${message}); its server must fix it.`,
      data: { 'scigate/malformed': MARK },
    },
  };
}

/** The explanation of a request's malformed answer, if this error is one made by malformedResponse. */
export function malformedResponseError(error: unknown): GatewayError | undefined {
  if (!(error instanceof McpError) || !isPlainObject(error.data) || error.data['scigate/malformed'] !== MARK) return undefined;
  return new GatewayError('upstream_error', error.message.replace(/^MCP error -?\d+: /, ''));
}
