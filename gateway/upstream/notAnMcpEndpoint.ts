import { GatewayError } from '../core/index.js';

/** Marks the error on the wire (`details.reason`), and lets the client tell it from a broken server's. */
const REASON = 'not_an_mcp_endpoint';

/**
 * A URL that reaches no MCP endpoint: it answered with a web page (htmlPageAnswers.ts), or with a
 * redirect the gateway does not follow, one that leads nowhere (no Location, or one that is no URL)
 * or a redirect loop (sameOriginRedirects.ts; `details.redirect` says which of the last three).
 * Asking again gets the same answer, so it is not retryable, and the admin's fix of the URL (or a
 * login, or of the server) is what it waits for.
 */
export function notAnMcpEndpoint(message: string, details: Record<string, unknown>): GatewayError {
  return new GatewayError('upstream_error', message, { details: { reason: REASON, ...details } });
}

/** Whether a failure is a URL that reaches no MCP endpoint: no sign of a broken server, and asking again cannot help. */
export function isNotAnMcpEndpoint(failure: unknown): boolean {
  if (typeof failure !== 'object' || failure === null) return false;
  const { code, details } = failure as { code?: unknown; details?: Record<string, unknown> };
  return code === 'upstream_error' && details?.['reason'] === REASON;
}
