import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ErrorCode } from '../catalog/index.js';
import { GatewayError, type Logger } from '../gateway/index.js';

/** The HTTP edge's one status table (house style §3). */
const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  auth_required: 401,
  forbidden: 403,
  permission_denied: 403,
  insufficient_scope: 403,
  not_found: 404,
  tool_unavailable: 404,
  conflict: 409,
  permission_expired: 409,
  response_too_large: 413,
  rate_limited: 429,
  queue_full: 429,
  upstream_error: 502,
  upstream_unavailable: 503,
  queue_timeout: 503,
  cancelled: 499,
  upstream_timeout: 504,
  internal: 500,
};

/** Maps a GatewayError code to its HTTP status. */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** Turns anything thrown in a route into `{error: {code, message}}` with the right status; never a stack. */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (thrown, req, res, _next) => {
    const error = isBodyParseError(thrown)
      ? new GatewayError('invalid_input', 'The request body is not valid JSON.')
      : GatewayError.from(thrown);
    if (error.code === 'internal') log.error({ err: thrown, path: req.path }, 'admin route failed');
    if (error.retryAfterMs !== undefined) res.set('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
    const { code, message, details } = error.toJSON();
    res.status(httpStatusOf(code)).json({ error: { code, message, ...(details ? { details } : {}) } });
  };
}

/** JSON 404 for unknown API routes. */
export const notFoundRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: { code: 'not_found', message: `No route ${req.method} ${req.path.slice(0, 200)}.` } });
};

function isBodyParseError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { type?: string }).type === 'entity.parse.failed';
}
