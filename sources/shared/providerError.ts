import type { ErrorCode } from '../../catalog/index.js';
import { boundText } from '../../catalog/index.js';

/** Longest provider text quoted back to a caller. */
const MAX_PROVIDER_TEXT_CHARS = 300;

/** A classified provider failure; source servers turn it into an `isError` tool result. */
export class ProviderError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(code: ErrorCode, message: string, options: { retryable?: boolean; retryAfterMs?: number } = {}) {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** Cuts provider text to a bounded single line, safe to show a caller. */
export function boundProviderText(text: string): string {
  return boundText(text, MAX_PROVIDER_TEXT_CHARS);
}

/** Classifies a non-2xx provider status; `detail` is the provider's own reason when it gave one. */
export function classifyHttpStatus(
  provider: string,
  status: number,
  detail: string,
  retryAfterMs?: number,
): ProviderError {
  const reason = detail ? `: ${boundProviderText(detail)}` : '';
  if (status === 429) {
    return new ProviderError('rate_limited', `${provider} is rate limiting requests (HTTP 429)${reason}`, {
      retryable: true,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status === 404) return new ProviderError('not_found', `${provider} has no such record (HTTP 404)${reason}`);
  if (status === 401 || status === 403) {
    return new ProviderError('upstream_error', `${provider} refused the request (HTTP ${status})${reason}`);
  }
  if (status >= 400 && status < 500) {
    return new ProviderError('invalid_input', `${provider} rejected the request (HTTP ${status})${reason}`);
  }
  return new ProviderError('upstream_error', `${provider} failed (HTTP ${status})${reason}`, {
    retryable: true,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
