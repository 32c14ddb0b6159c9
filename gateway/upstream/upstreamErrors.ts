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
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError('upstream_unavailable', `${upstreamId} could not be reached (${phase}): ${message}`, {
    retryable: true,
    cause: error,
  });
}
