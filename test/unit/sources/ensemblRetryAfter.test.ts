import { describe, expect, it } from 'vitest';
import { readRetryAfterMs } from '../../../catalog/sources/shared/retryAfter.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('Retry-After reading (Ensembl sends fractional seconds)', () => {
  it('reads fractional seconds, rounding up so a retry is never early', () => {
    expect(readRetryAfterMs('0.4', NOW)).toBe(400);
    expect(readRetryAfterMs(' 1.0005 ', NOW)).toBe(1001);
  });

  it('reads whole seconds and HTTP dates as before', () => {
    expect(readRetryAfterMs('7', NOW)).toBe(7000);
    expect(readRetryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', NOW)).toBe(5000);
  });

  it('has no value for a missing or unreadable header', () => {
    expect(readRetryAfterMs(null, NOW)).toBeUndefined();
    expect(readRetryAfterMs('soon', NOW)).toBeUndefined();
  });
});
