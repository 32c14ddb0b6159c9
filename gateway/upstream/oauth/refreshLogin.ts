import { refreshAuthorization, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OAuthError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { GatewayError, type StoredOAuthLogin } from '../../core/index.js';

/**
 * One refresh-token grant for a saved login (the SDK's `refreshAuthorization`, against the
 * authorization server and resource the login used): the new tokens, or `refused` when the
 * provider answered with an OAuth error (the grant is gone: a new login is needed). A server
 * that did not answer is `upstream_unavailable`, retryable, and the login stays.
 */
export async function refreshLogin(login: StoredOAuthLogin, refreshToken: string, fetchFn: FetchLike): Promise<OAuthTokens | 'refused'> {
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
    if (error instanceof OAuthError && !(error instanceof ServerError)) return 'refused';
    // A provider that did not answer in time says so in its own words (see providerFetch).
    if (error instanceof GatewayError) throw error;
    throw new GatewayError('upstream_unavailable', 'The OAuth token could not be renewed now (the authorization server did not answer); try again shortly.', {
      retryable: true,
      cause: error,
    });
  }
}

/**
 * A login failure as the admin sees it: what failed and what to do. A provider's answer shows only
 * as its standard error code, never its free text; the SDK's own checks (a resource that does not
 * match the server URL, missing metadata) are quoted, they name only URLs the admin configured or
 * the server published.
 */
export function loginError(what: string, error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const why =
    error instanceof OAuthError
      ? /^[a-z_]{1,40}$/.test(error.errorCode) ? ` (OAuth error ${error.errorCode})` : ''
      : error instanceof Error ? `: ${error.message.slice(0, 300)}` : '';
  return new GatewayError('upstream_error', `The gateway ${what}${why}. Check the server URL and OAuth settings, then start the login again.`, { cause: error });
}
