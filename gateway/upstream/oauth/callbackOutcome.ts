import { GatewayError } from '../../core/index.js';
import type { PendingLogin } from './loginProvider.js';

/** What the provider sent back to the callback (RFC 6749 §4.1.2, RFC 9207 `iss`). */
export interface CallbackOutcome {
  code?: string;
  error?: string;
  iss?: string;
}

/**
 * The code to exchange for `pending`, or why the callback is refused before its code goes anywhere
 * (the status reason and the error for the page). Every login shares one callback
 * URL, so a code could come from another authorization server than the one this login's token
 * endpoint belongs to (a mix-up: a malicious provider sends the browser on to an honest one and
 * would receive its code). RFC 9207: an `iss` must name this login's issuer, and a provider that
 * says it sends `iss` must have sent it.
 */
export function decideCallback(pending: PendingLogin, outcome: CallbackOutcome, nowMs: number): { code: string } | { why: string; error: GatewayError } {
  if (nowMs > pending.expiresAt) return { why: 'login took too long', error: new GatewayError('conflict', 'This login expired (10 minutes); start it again.') };
  if (outcome.code === undefined) {
    return { why: 'login was refused by the provider', error: new GatewayError('auth_required', 'The provider did not grant access; start the login again.') };
  }
  const metadata = pending.discovery?.authorizationServerMetadata as { issuer?: string; authorization_response_iss_parameter_supported?: unknown } | undefined;
  const expected = metadata?.issuer;
  const mixedUp = outcome.iss !== undefined ? outcome.iss !== expected : metadata?.authorization_response_iss_parameter_supported === true;
  if (!mixedUp) return { code: outcome.code };
  const answered = outcome.iss === undefined ? 'without the iss its metadata promises' : 'from another authorization server (its iss does not match)';
  return {
    why: 'the answer did not come from this server\'s authorization server',
    error: new GatewayError(
      'upstream_error',
      `The login was answered ${answered}, expected ${expected ?? 'no iss'}: the code was not used, as another provider may have mixed up the login. Start the login again; if this repeats, check which authorization servers the custom servers use.`,
    ),
  };
}
