import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '../../../sources/shared/providerError.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('Retry-After reading (Ensembl sends fractional seconds)', () => {
  it('reads fractional seconds, rounding up so a retry is never early', () => {
    expect(parseRetryAfterMs('0.4', NOW)).toBe(400);
    expect(parseRetryAfterMs(' 1.0005 ', NOW)).toBe(1001);
  });

  it('reads whole seconds and HTTP dates as before', () => {
    expect(parseRetryAfterMs('7', NOW)).toBe(7000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', NOW)).toBe(5000);
  });

  it('has no value for a missing or unreadable header', () => {
    expect(parseRetryAfterMs(null, NOW)).toBeUndefined();
    expect(parseRetryAfterMs('soon', NOW)).toBeUndefined();
  });
});
