/** The HTTP Retry-After header, read one way by every caller: provider requests and file downloads. */

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
