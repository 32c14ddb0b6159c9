import type { Response } from 'express';
import type { ErrorCode } from '../../catalog/index.js';
import { GatewayError } from '../core/index.js';

/** The HTTP edge's one status table (house style §3). */
const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  auth_required: 401,
  forbidden: 403,
  permission_denied: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  tool_unavailable: 404,
  conflict: 409,
  permission_expired: 409,
  response_too_large: 413,
  request_too_large: 413,
  unsupported_media_type: 415,
  pdf_too_many_pages: 413,
  pdf_encrypted: 422,
  pdf_corrupt: 422,
  extraction_limit: 422,
  rate_limited: 429,
  queue_full: 429,
  upstream_error: 502,
  upstream_unavailable: 503,
  storage_unavailable: 503,
  queue_timeout: 503,
  cancelled: 499,
  upstream_timeout: 504,
  internal: 500,
};

/** Maps a GatewayError code to its HTTP status. */
export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** The one HTTP error wire shape: `{error: {code, message, details?}}` — no stack, no cause. */
export function httpErrorBody(error: GatewayError): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
  const { code, message, details } = error.toJSON();
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** Answers with the error's status (and Retry-After when it has one) and the one wire shape. */
export function sendHttpError(res: Response, error: GatewayError): void {
  if (error.retryAfterMs !== undefined) res.set('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
  res.status(httpStatusOf(error.code)).json(httpErrorBody(error));
}

/** body-parser's error types (http-errors `type`), each with the code and words a client gets. */
const BODY_ERRORS: Record<string, [ErrorCode, string]> = {
  'entity.parse.failed': ['invalid_input', 'The request body is not valid JSON, or is a bare value (null, a string, a number); send a JSON object.'],
  'entity.too.large': ['request_too_large', 'The request body is larger than this route accepts.'],
  'encoding.unsupported': ['unsupported_media_type', 'This Content-Encoding is not supported; send identity, gzip, deflate or br.'],
  'charset.unsupported': ['unsupported_media_type', 'This charset is not supported; send the body as UTF-8.'],
  'request.aborted': ['invalid_input', 'The request was aborted before its body was complete.'],
  'request.size.invalid': ['invalid_input', 'The request body is shorter or longer than its Content-Length.'],
};

/**
 * Turns what express, body-parser or a route threw into a GatewayError. Reading errors (bad
 * JSON, bad charset or encoding, bad gzip, a bad `%` escape in the path) are the client's
 * fault and become 4xx codes instead of `internal`; anything else goes through `GatewayError.from`.
 */
export function fromHttpError(thrown: unknown): GatewayError {
  if (thrown instanceof GatewayError) return thrown;
  if (thrown instanceof URIError) {
    return new GatewayError('invalid_input', 'The URL has a bad % escape; encode path segments with encodeURIComponent.', { cause: thrown });
  }
  const status = httpStatusField(thrown);
  if (status === undefined) return GatewayError.from(thrown);
  const known = BODY_ERRORS[String((thrown as { type?: unknown }).type)];
  const limit = (thrown as { limit?: unknown }).limit;
  if (status === 413 && typeof limit === 'number') {
    return new GatewayError('request_too_large', `The request body is larger than this route accepts (${limit} bytes); send less.`, { cause: thrown, details: { limitBytes: limit } });
  }
  if (known) return new GatewayError(known[0], known[1], { cause: thrown });
  if (status === 413) return new GatewayError('request_too_large', 'The request body is too large.', { cause: thrown });
  if (status === 415) return new GatewayError('unsupported_media_type', 'The request body has an unsupported media type or encoding.', { cause: thrown });
  // A failed gzip/deflate/br stream arrives as an untyped 400.
  return new GatewayError('invalid_input', 'The request body could not be read (bad compression or framing).', { cause: thrown });
}

/** The 4xx status that http-errors put on a reading error, if any. */
function httpStatusField(thrown: unknown): number | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined;
  const status = (thrown as { status?: unknown; statusCode?: unknown }).status ?? (thrown as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
