import type { StoredOAuthLogin } from '../../core/index.js';

/**
 * The longest access-token lifetime taken as an expiry: 10 years. A provider's `expires_in` beyond
 * it (or not a positive number) is treated as no lifetime at all: the token is renewed after a 401.
 */
export const MAX_TOKEN_LIFETIME_S = 10 * 365 * 24 * 3600;

/**
 * When tokens issued at `nowMs` expire (`expiresAt`, ms since the epoch); none when the provider
 * gave no usable lifetime. A provider's `expires_in` is untrusted: a huge one would make an expiry
 * no Date can show, and the status, the server list and the next start would all fail on it.
 */
export function expiryOf(tokens: { expires_in?: number }, nowMs: number): { expiresAt?: number } {
  const lifetimeS = tokens.expires_in;
  if (lifetimeS === undefined || !Number.isFinite(lifetimeS) || lifetimeS <= 0 || lifetimeS > MAX_TOKEN_LIFETIME_S) return {};
  return { expiresAt: nowMs + lifetimeS * 1000 };
}

/** A saved login without an expiry no Date can show (an older gateway saved whatever `expires_in` implied). */
export function withUsableExpiry(login: StoredOAuthLogin): StoredOAuthLogin {
  const { expiresAt, ...rest } = login;
  return expiresAt !== undefined && Number.isFinite(new Date(expiresAt).getTime()) ? login : rest;
}

/** An access token this close to its expiry is renewed before it is sent; at most half its lifetime. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * From when a login's access token is renewed before it is sent, ms since the epoch; undefined
 * when only a 401 tells. A token shorter-lived than twice the margin is renewed at half its
 * lifetime, not at every call; one without a refresh token cannot be renewed, so it is sent until
 * it expires rather than dropped a minute early.
 */
export function renewalDueAt(login: StoredOAuthLogin): number | undefined {
  if (login.expiresAt === undefined) return undefined;
  if (typeof login.tokens.refresh_token !== 'string') return login.expiresAt;
  const lifetimeS = login.tokens.expires_in;
  const marginMs = typeof lifetimeS === 'number' && lifetimeS > 0 ? Math.min(REFRESH_MARGIN_MS, lifetimeS * 500) : REFRESH_MARGIN_MS;
  return login.expiresAt - marginMs;
}

/** True once `login`'s access token has expired at `nowMs` (never for one without a known expiry). */
export function hasExpired(login: StoredOAuthLogin, nowMs: number): boolean {
  return login.expiresAt !== undefined && nowMs >= login.expiresAt;
}
