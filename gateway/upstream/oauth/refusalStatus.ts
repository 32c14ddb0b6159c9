import { GatewayError } from '../../core/index.js';
import type { OAuthStatus } from './oauthStatus.js';

/** What the admin does to log in: the route and the admin page's button. */
export function nextStep(serverId: string): string {
  return `log in with POST /api/mcp/servers/${serverId}/oauth/start (the admin page's Log in button).`;
}

/** `why`, then how to log in. */
export function loginMessage(serverId: string, why: string): string {
  return `${why}; ${nextStep(serverId)}`;
}

/** A new login failed: an earlier login still in hand (`loggedIn`) stays in use, and the status says so. */
export function failedLoginStatus(serverId: string, loggedIn: boolean, why: string): OAuthStatus {
  return loggedIn ? { state: 'authorized', message: `a new login failed (${why}); the earlier login is still in use` } : { state: 'required', message: loginMessage(serverId, why) };
}

export interface RefusalInput {
  serverId: string;
  status: number;
  /** The `WWW-Authenticate` challenge's error and scope. */
  challenge: { error?: string; scope?: string };
  hadToken: boolean;
  /** The scope the current login consented to as a step-up ('' for none), or undefined. */
  stepUp: string | undefined;
}

/**
 * How a 401/403 from the server moves the OAuth state: the status to show,
 * the error the caller reports, and the scope a next login consents to.
 */
export function decideRefusal(input: RefusalInput): { status: OAuthStatus; refusal: GatewayError; consentAsked?: string } {
  const { serverId, challenge } = input;
  if (input.status === 403 && challenge.error === 'insufficient_scope') {
    const scope = challenge.scope ?? 'a wider scope';
    if (input.stepUp !== undefined && (challenge.scope === undefined || covers(input.stepUp, challenge.scope))) {
      const why = `still refuses the scope "${scope}" after a login that consented to it: the provider did not grant it to this account`;
      return {
        status: { state: 'refused', message: `${why}. Logging in again will not help until it does; check the account's permissions, then ${nextStep(serverId)}`, requiredScope: scope },
        refusal: new GatewayError('insufficient_scope', `${serverId} ${why}; an admin must check the account's permissions at the provider, then log in again.`),
        consentAsked: scope,
      };
    }
    return {
      status: { state: 'required', message: loginMessage(serverId, `needs consent to the scope "${scope}"`), requiredScope: scope },
      refusal: new GatewayError('insufficient_scope', `${serverId} needs consent to the scope "${scope}": log in again (POST /api/mcp/servers/${serverId}/oauth/start).`),
      consentAsked: scope,
    };
  }
  const why = input.hadToken ? 'refused the OAuth token' : 'requires an OAuth login';
  return { status: { state: 'required', message: loginMessage(serverId, why) }, refusal: new GatewayError('auth_required', `${serverId} ${why}: ${nextStep(serverId)}`) };
}

/** True when every scope in `asked` (space-separated) is among `granted`. */
function covers(granted: string, asked: string): boolean {
  const held = new Set(granted.split(' ').filter(Boolean));
  return asked.split(' ').filter(Boolean).every((scope) => held.has(scope));
}
