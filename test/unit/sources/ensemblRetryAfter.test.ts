import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '../../../catalog/index.js';
import { providerFetch } from '../../../sources/shared/providerFetch.js';
import type { SourceDeps } from '../../../sources/shared/sourceDefinition.js';

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

describe('Retry-After is bounded before it reaches a caller', () => {
  const ONE_DAY_MS = 24 * 60 * 60 * 1000;

  it('ignores a wait no provider means: a 23-digit number, a date decades away, a number too large to read', () => {
    expect(parseRetryAfterMs('99999999999999999999999', NOW)).toBeUndefined();
    expect(parseRetryAfterMs('Wed, 21 Oct 2099 07:28:00 GMT', NOW)).toBeUndefined();
    expect(parseRetryAfterMs('9'.repeat(400), NOW)).toBeUndefined();
  });

  it('clamps a long but plausible wait (a week, a date next month) to one day', () => {
    expect(parseRetryAfterMs('604800', NOW)).toBe(ONE_DAY_MS);
    expect(parseRetryAfterMs('Sun, 01 Feb 2026 00:00:00 GMT', NOW)).toBe(ONE_DAY_MS);
    expect(parseRetryAfterMs('86400', NOW)).toBe(ONE_DAY_MS);
  });

  it('a date already past means retry now', () => {
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', NOW)).toBe(0);
  });

  it('a 429 from a provider carries the bounded wait, not the raw header', async () => {
    const answer429 = (retryAfter: string) => async () => new Response('', { status: 429, headers: { 'retry-after': retryAfter } });
    const deps = (fetch: typeof globalThis.fetch): SourceDeps => ({
      fetch,
      userAgent: 'test',
      now: () => new Date(NOW),
      pacer: () => async () => undefined,
    });
    const failureOf = (retryAfter: string) =>
      providerFetch(deps(answer429(retryAfter)), 'http://127.0.0.1:1/x', { provider: 'Ensembl' }).catch((error: unknown) => error);
    expect(await failureOf('99999999999999999999999')).toMatchObject({ code: 'rate_limited', retryAfterMs: undefined });
    expect(await failureOf('Wed, 21 Oct 2099 07:28:00 GMT')).toMatchObject({ code: 'rate_limited', retryAfterMs: undefined });
    expect(await failureOf('172800')).toMatchObject({ code: 'rate_limited', retryAfterMs: ONE_DAY_MS });
  });
});
