/** Wire error codes shared by sources, the broker, the MCP edge and the HTTP edge. */
export const ERROR_CODES = [
  'invalid_input',
  'tool_unavailable',
  'permission_denied',
  'permission_expired',
  'queue_full',
  'queue_timeout',
  'rate_limited',
  'upstream_timeout',
  'upstream_error',
  'upstream_unavailable',
  'storage_unavailable',
  'response_too_large',
  'request_too_large',
  'unsupported_media_type',
  // paper_extract_pdf: the PDF needs a password, is damaged, has more pages than allowed, or its
  // extraction outgrew the worker's heap or wall-clock limit.
  'pdf_encrypted',
  'pdf_corrupt',
  'pdf_too_many_pages',
  'extraction_limit',
  'cancelled',
  'auth_required',
  'insufficient_scope',
  'not_found',
  // The admin API: a known path asked with a method it does not take (405, with Allow).
  'method_not_allowed',
  'conflict',
  'unauthorized',
  'forbidden',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
