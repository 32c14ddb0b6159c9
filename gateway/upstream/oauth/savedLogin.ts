import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { StoredOAuthLogin } from '../../core/index.js';
import type { PendingLogin } from './loginProvider.js';
import { expiryOf } from './tokenExpiry.js';

/**
 * The login record the store keeps, for a finished login: what the SDK's `auth()` learned (client,
 * tokens, discovery), the resource the authorization URL named and the expiry, under the
 * configuration's `signature`. Undefined when the login is incomplete (nothing may be saved then).
 * Built here, beside its renewal, so both shapes of the saved record are read in one place.
 */
export function loginFromPending(pending: PendingLogin, signature: string, nowMs: number): StoredOAuthLogin | undefined {
  const { tokens, clientInformation, discovery } = pending;
  if (!tokens || !clientInformation || !discovery) return undefined;
  const resource = pending.authorizationUrl?.searchParams.get('resource') ?? undefined;
  return {
    signature,
    redirectUri: pending.redirectUri,
    ...(resource ? { resource } : {}),
    clientInformation: clientInformation as unknown as Record<string, unknown>,
    tokens: tokens as unknown as Record<string, unknown>,
    discovery: discovery as unknown as Record<string, unknown>,
    ...expiryOf(tokens, nowMs),
  };
}

/**
 * `login` with the tokens a refresh issued at `nowMs`: the issuer it was logged in with is kept, and
 * the expiry is the new tokens' own (none when they name no lifetime, not the old one).
 */
export function withRenewedTokens(login: StoredOAuthLogin, tokens: OAuthTokens, nowMs: number): StoredOAuthLogin {
  const { expiresAt: _previous, ...rest } = login;
  return { ...rest, tokens: { ...tokens, issuer: login.tokens.issuer }, ...expiryOf(tokens, nowMs) };
}
