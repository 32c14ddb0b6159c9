/** An error the SDK's Protocol answers a request with: it sends `code`, `message` and `data` as they are. */
export type RpcError = Error & { code: number; data?: unknown };

/**
 * A JSON-RPC error for a request handler to throw. Not an McpError: its message starts with
 * "MCP error <code>: ", which the client's McpError adds again, so the agent read
 * "MCP error -32603: MCP error -32603: …". A prefix already in `message` is dropped too.
 */
export function rpcError(code: number, message: string, data?: unknown): RpcError {
  return Object.assign(new Error(message.replace(/^MCP error -?\d+: /, '')), { code, ...(data !== undefined ? { data } : {}) });
}
