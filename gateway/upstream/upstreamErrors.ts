import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, cancelledBy } from '../core/index.js';
import { malformedResponseError } from './malformedResponses.js';

/** Maps what the SDK client throws to the gateway's one error type. */
export function toUpstreamError(error: unknown, upstreamId: string, signal?: AbortSignal, phase = 'call'): GatewayError {
  if (error instanceof GatewayError) return error;
  const malformed = malformedResponseError(error);
  if (malformed) return malformed;
  if (signal?.aborted) return cancelledBy(signal);
  if (error instanceof McpError) {
    if (error.code === McpErrorCode.RequestTimeout) {
      return new GatewayError('upstream_timeout', `${upstreamId} did not answer in time`, { retryable: true });
    }
    if (isConnectionClosed(error)) {
      return new GatewayError('upstream_unavailable', `${upstreamId} closed the connection during the ${phase}; the next call reconnects`, {
        retryable: true,
      });
    }
    // The JSON-RPC code is kept so a relayed resources/prompts request can answer with the server's own.
    return new GatewayError('upstream_error', `${upstreamId} answered with an MCP error: ${serverWords(error)}`, { details: { rpcCode: error.code } });
  }
  return new GatewayError('upstream_unavailable', `${upstreamId} could not be reached (${phase}): ${describe(error)}`, {
    retryable: true,
    cause: error,
  });
}

/** A response broken off mid-way (lostResponseFetch): the connection is ended, and calling again reconnects. */
export function lostConnection(id: string, cause: unknown): GatewayError {
  return new GatewayError('upstream_unavailable', `${id} dropped the connection while it was answering; call again (the server is reconnected).`, {
    retryable: true,
    cause,
  });
}

/**
 * Whether this is the SDK's own "connection closed" (Protocol._onclose: code -32000, the fixed words
 * "Connection closed", no data), not a server's reply. -32000 is also the commonest code servers
 * send for their own failures ("quota exceeded", "bad auth"): those are answers, not a lost connection.
 */
function isConnectionClosed(error: McpError): boolean {
  return error.code === McpErrorCode.ConnectionClosed && error.message === CONNECTION_CLOSED && error.data === undefined;
}

const CONNECTION_CLOSED = new McpError(McpErrorCode.ConnectionClosed, 'Connection closed').message;

/**
 * The server's own words. McpError's message starts "MCP error <code>: ", and an SDK-built server
 * sends its McpError's message whole, so a reply arrives with that prefix twice; the code is in
 * `details.rpcCode` (and a relayed request's JSON-RPC error), so the words are quoted bare.
 */
function serverWords(error: McpError): string {
  return error.message.replace(/^(?:MCP error -?\d+: )+/, '') || `code ${error.code}, no message`;
}

/**
 * An error's words with the cause fetch hides behind "fetch failed" ("connect ECONNREFUSED
 * 127.0.0.1:8080", "getaddrinfo ENOTFOUND host"): what tells an admin whether the server is down,
 * misnamed or behind a wrong port.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}
