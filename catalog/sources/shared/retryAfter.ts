import { parseRetryAfterMs } from './providerError.js';

const SECONDS = /^\d+(\.\d+)?$/;

/**
 * Reads `Retry-After` in ms, accepting fractional seconds (Ensembl sends e.g. `0.4`); integer
 * seconds and HTTP dates as `parseRetryAfterMs`. A fraction rounds up so a caller never retries early.
 */
export function readRetryAfterMs(header: string | null, nowMs: number): number | undefined {
  const trimmed = header?.trim() ?? '';
  if (SECONDS.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  return parseRetryAfterMs(header, nowMs);
}
