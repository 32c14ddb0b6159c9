import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { decideCustomUrl, isSecureOrLoopback, type CustomUrlPolicy } from '../../../catalog/index.js';
import { GatewayError } from '../../core/index.js';

/**
 * Where the gateway refuses to send OAuth requests (seed §5.5: "OAuth URLs require HTTPS except for
 * loopback HTTP"): the authorization code, PKCE verifier and refresh token travel there, and a
 * server's metadata may name any URL. Without the gateway's own policy (private ranges, its own
 * listener) it still refuses what no policy allows: cloud metadata hosts and link-local addresses.
 */
export function refusedEndpoint(url: string | URL, policy: CustomUrlPolicy = { allowPrivate: true }): string | undefined {
  const text = String(url);
  if (!isSecureOrLoopback(text)) return 'is not https:// (plain http:// is allowed only on a loopback host, where no one can read the code or tokens on the wire)';
  return decideCustomUrl(text, policy);
}

/** Throws when `url` may not receive an OAuth request; `what` names it for the admin. */
export function assertEndpoint(what: string, url: string | URL, policy?: CustomUrlPolicy): void {
  const why = refusedEndpoint(url, policy);
  if (why === undefined) return;
  throw new GatewayError('upstream_error', `The gateway refused to use ${what} ${shown(url)}: it ${why}. The MCP server's OAuth metadata must name https:// endpoints; check the server's configuration.`);
}

/**
 * Checks every endpoint discovery found before any of them is used: the authorization server,
 * where the browser is sent, and where registration and the code exchange post.
 */
export function assertDiscoveredEndpoints(state: OAuthDiscoveryState, policy?: CustomUrlPolicy): void {
  assertEndpoint('the authorization server', state.authorizationServerUrl, policy);
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return;
  assertEndpoint('the authorization endpoint', metadata.authorization_endpoint, policy);
  assertEndpoint('the token endpoint', metadata.token_endpoint, policy);
  if (metadata.registration_endpoint) assertEndpoint('the registration endpoint', metadata.registration_endpoint, policy);
}

/**
 * MCP authorization (2025-11-25) requires PKCE, and the client must refuse to proceed when the
 * authorization server's metadata does not list `S256` in `code_challenge_methods_supported` (a
 * server that publishes no metadata cannot show it either): without PKCE an intercepted code is
 * enough to obtain tokens.
 */
export function assertPkceSupported(state: OAuthDiscoveryState): void {
  const origin = new URL(String(state.authorizationServerUrl)).origin;
  const metadata = state.authorizationServerMetadata;
  if (metadata?.code_challenge_methods_supported?.includes('S256')) return;
  const why = metadata
    ? 'its metadata does not list S256 in code_challenge_methods_supported, so it may not support PKCE'
    : 'it publishes no authorization server metadata, so its PKCE support cannot be verified';
  throw new GatewayError('upstream_error', `The gateway refused to log in with the authorization server at ${origin}: ${why}, which MCP requires. The provider must support PKCE (S256) and say so in its metadata.`);
}

/** A URL as the admin sees it: without credentials, query or fragment. */
function shown(url: string | URL): string {
  try {
    const parsed = new URL(String(url));
    parsed.username = parsed.password = parsed.search = parsed.hash = '';
    return parsed.href;
  } catch {
    return '(an invalid URL)';
  }
}
