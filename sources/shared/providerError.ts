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

/**
 * Longest wait passed on to a caller. Provider quotas reset per second, per hour (Ensembl) or at
 * most per day, so a provider that asks for more is still served after a day; and a caller told to
 * wait longer than that has in effect been told to give up, which no provider means by a 429.
 */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * A wait beyond this is not a quota window but a broken or hostile header (a date in 2099, a
 * 23-digit number); it is ignored, so the caller's own backoff applies, rather than clamped.
 */
const IMPLAUSIBLE_RETRY_AFTER_MS = 365 * MAX_RETRY_AFTER_MS;

/**
 * Reads `Retry-After` as seconds (fractions too: Ensembl sends `0.4`, rounded up so nobody retries
 * early) or as an HTTP date (a past one is 0: retry now); undefined when absent, unreadable or
 * implausibly far off, and never more than {@link MAX_RETRY_AFTER_MS}.
 */
export function parseRetryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const ms = /^\d+(\.\d+)?$/.test(trimmed) ? Math.ceil(Number(trimmed) * 1000) : Date.parse(trimmed) - nowMs;
  return boundRetryAfterMs(ms);
}

function boundRetryAfterMs(ms: number): number | undefined {
  if (!Number.isFinite(ms) || ms > IMPLAUSIBLE_RETRY_AFTER_MS) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
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
