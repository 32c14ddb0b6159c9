/**
 * The longest access-token lifetime taken as an expiry: 10 years. A provider's `expires_in` beyond
 * it (or not a positive number) is treated as no lifetime at all: the token is renewed after a 401.
 */
export const MAX_TOKEN_LIFETIME_S = 10 * 365 * 24 * 3600;

/**
 * When tokens issued at `nowMs` expire, ms since the epoch; undefined when the provider gave no
 * usable lifetime. A provider's `expires_in` is untrusted: a huge one would make an expiry no Date
 * can show, and the status, the server list and the next start would all fail on it.
 */
export function expiryOf(tokens: { expires_in?: number }, nowMs: number): number | undefined {
  const lifetimeS = tokens.expires_in;
  if (lifetimeS === undefined || !Number.isFinite(lifetimeS) || lifetimeS <= 0 || lifetimeS > MAX_TOKEN_LIFETIME_S) return undefined;
  return nowMs + lifetimeS * 1000;
}

/** A saved login's expiry if it is a time a Date can show (an older gateway saved whatever `expires_in` implied). */
export function usableExpiry(expiresAt: number | undefined): number | undefined {
  return expiresAt !== undefined && Number.isFinite(new Date(expiresAt).getTime()) ? expiresAt : undefined;
}
