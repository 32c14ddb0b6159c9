import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, cancelledBy } from '../core/index.js';

/** Maps what the SDK client throws to the gateway's one error type. */
export function toUpstreamError(error: unknown, upstreamId: string, signal?: AbortSignal, phase = 'call'): GatewayError {
  if (error instanceof GatewayError) return error;
  if (signal?.aborted) return cancelledBy(signal);
  if (error instanceof McpError) {
    if (error.code === McpErrorCode.RequestTimeout) {
      return new GatewayError('upstream_timeout', `${upstreamId} did not answer in time`, { retryable: true });
    }
    if (error.code === McpErrorCode.ConnectionClosed) {
      return new GatewayError('upstream_unavailable', `${upstreamId} closed the connection during the ${phase}; the next call reconnects`, {
        retryable: true,
      });
    }
    // The JSON-RPC code is kept so a relayed resources/prompts request can answer with the server's own.
    return new GatewayError('upstream_error', `${upstreamId} answered with an MCP error: ${error.message}`, { details: { rpcCode: error.code } });
  }
  return new GatewayError('upstream_unavailable', `${upstreamId} could not be reached (${phase}): ${describe(error)}`, {
    retryable: true,
    cause: error,
  });
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
