import { refreshAuthorization, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OAuthError, ServerError, TemporarilyUnavailableError, TooManyRequestsError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { GatewayError, type StoredOAuthLogin } from '../../core/index.js';
import { providerFailure, type ProviderTrace } from './providerTrace.js';

/**
 * One refresh-token grant for a saved login (the SDK's `refreshAuthorization`, against the
 * authorization server and resource the login used): the new tokens, or `refused` when the
 * provider answered with an OAuth error (the grant is gone: a new login is needed). A server
 * that did not answer is `upstream_unavailable`, retryable, and the login stays.
 */
export async function refreshLogin(login: StoredOAuthLogin, refreshToken: string, fetchFn: FetchLike, trace: ProviderTrace = {}): Promise<OAuthTokens | 'refused'> {
  const discovery = login.discovery as unknown as OAuthDiscoveryState;
  try {
    return await refreshAuthorization(discovery.authorizationServerUrl, {
      ...(discovery.authorizationServerMetadata ? { metadata: discovery.authorizationServerMetadata } : {}),
      clientInformation: login.clientInformation as OAuthClientInformationMixed,
      refreshToken,
      ...(login.resource ? { resource: new URL(login.resource) } : {}),
      fetchFn,
    });
  } catch (error) {
    if (isRefusal(error, trace)) return 'refused';
    // A provider that did not answer in time says so in its own words (see providerFetch).
    if (error instanceof GatewayError) throw error;
    const why = providerFailure(error, trace) ?? 'the authorization server did not answer';
    throw new GatewayError('upstream_unavailable', `The OAuth token could not be renewed now (${why}); try again shortly.`, {
      retryable: true,
      cause: error,
    });
  }
}

/**
 * True when the provider's answer ends the grant: an OAuth error (invalid_grant, invalid_client, …).
 * Not one that says to come back (server_error, temporarily_unavailable, too_many_requests), nor
 * any error with HTTP 429 or 5xx: deleting the login for those would log the gateway out for good
 * over a provider's passing outage.
 */
function isRefusal(error: unknown, trace: ProviderTrace): boolean {
  if (!(error instanceof OAuthError)) return false;
  if (error instanceof ServerError || error instanceof TemporarilyUnavailableError || error instanceof TooManyRequestsError) return false;
  const status = trace.last?.status ?? 0;
  return status !== 429 && status < 500;
}

/**
 * A login failure as the admin sees it: what failed and what to do. A provider's answer shows only
 * as the step that failed and its standard error code (see `providerFailure`), never its free text;
 * the SDK's own checks (a resource that does not match the server URL, missing metadata) are
 * quoted, they name only URLs the admin configured or the server published.
 */
export function loginError(what: string, error: unknown, context: { trace?: ProviderTrace; redirectUri?: string } = {}): GatewayError {
  if (error instanceof GatewayError) return error;
  const traced = context.trace ? providerFailure(error, context.trace, context.redirectUri) : undefined;
  const why = traced
    ? `: ${traced}`
    : error instanceof OAuthError
      ? /^[a-z_]{1,40}$/.test(error.errorCode) ? ` (OAuth error ${error.errorCode})` : ''
      : error instanceof Error && !(error instanceof SyntaxError) && error.name !== 'ZodError' ? `: ${error.message.slice(0, 300)}` : '';
  return new GatewayError('upstream_error', `The gateway ${what}${why}. Check the server URL and OAuth settings, then start the login again.`, { cause: error });
}
