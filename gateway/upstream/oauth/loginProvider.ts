import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CustomUrlPolicy, OAuthSettings } from '../../../catalog/index.js';
import { GatewayError, type StoredOAuthLogin } from '../../core/index.js';
import { assertDiscoveredEndpoints, assertPkceSupported } from './providerEndpoints.js';

/** One login attempt, kept in memory only: an unfinished login restarts after a gateway restart. */
export interface PendingLogin {
  /** The one-use `state` parameter that finds this attempt again at the callback. */
  readonly state: string;
  readonly redirectUri: string;
  /** The manager's generation when the login began; a clear or config change moves it on. */
  readonly generation: number;
  /** ms since the epoch. */
  readonly expiresAt: number;
  /** A scope the server asked for (a 401/403 challenge), sent instead of the configured one. */
  readonly scope?: string;
  /** Started to give the consent a 403 `insufficient_scope` asked for (a step-up). */
  readonly stepUp?: boolean;
  codeVerifier?: string;
  /** Its callback came: the code is being exchanged, and no other callback may use this attempt. */
  finishing?: boolean;
  /** The code went to the token endpoint (with the verifier): it is never sent again. */
  codeSent?: boolean;
  /** What the token endpoint refused after the code went, as the SDK's retry invalidated it. */
  refused?: 'client' | 'code';
  authorizationUrl?: URL;
  clientInformation?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  tokens?: OAuthTokens;
}

/**
 * The SDK's `OAuthClientProvider` for one login attempt: everything `auth()` learns (registration,
 * discovery, PKCE verifier, authorization URL, tokens) is written into `pending`, nothing goes to
 * disk here, so a login that is cancelled or outdated leaves no trace.
 */
export function loginProvider(pending: PendingLogin, settings: OAuthSettings, urlPolicy?: CustomUrlPolicy): OAuthClientProvider {
  const preregistered: OAuthClientInformationMixed | undefined = settings.clientId
    ? { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) }
    : undefined;
  const metadata: OAuthClientMetadata = {
    client_name: 'scigate',
    redirect_uris: [pending.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(settings.scope ? { scope: settings.scope } : {}),
  };
  return {
    get redirectUrl() {
      return pending.redirectUri;
    },
    ...(settings.clientMetadataUrl && !preregistered ? { clientMetadataUrl: settings.clientMetadataUrl } : {}),
    get clientMetadata() {
      return metadata;
    },
    state: () => pending.state,
    clientInformation: () => pending.clientInformation ?? preregistered,
    saveClientInformation: (information) => {
      pending.clientInformation = information;
    },
    tokens: () => pending.tokens,
    saveTokens: (tokens) => {
      pending.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      pending.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier) => {
      pending.codeVerifier = verifier;
    },
    // Handed out once: the SDK's auth() exchanges the code again after the provider refused it
    // (invalid_grant, or invalid_client after registering anew), and a code must be sent once (a
    // provider may revoke what a reused one issued).
    codeVerifier: () => {
      if (pending.codeSent) throw new Error(REFUSALS[pending.refused ?? 'code']);
      if (!pending.codeVerifier) throw new GatewayError('conflict', 'This login has no PKCE verifier; start the login again.');
      pending.codeSent = true;
      return pending.codeVerifier;
    },
    // The SDK saves what discovery found before it registers or sends the browser anywhere.
    saveDiscoveryState: (state) => {
      assertDiscoveredEndpoints(state, urlPolicy);
      assertPkceSupported(state);
      pending.discovery = state;
    },
    discoveryState: () => pending.discovery,
    invalidateCredentials: (scope) => {
      if (pending.codeSent) pending.refused ??= scope === 'all' || scope === 'client' ? 'client' : 'code';
      if (scope === 'all' || scope === 'client') delete pending.clientInformation;
      if (scope === 'all' || scope === 'tokens') delete pending.tokens;
      if (scope === 'all' || scope === 'discovery') delete pending.discovery;
    },
  };
}

/** The tokens and secrets of a saved login and a pending one, for the scrubber. */
export function secretsOf(login: StoredOAuthLogin | undefined, pending: PendingLogin | undefined): string[] {
  const values = [login?.tokens.access_token, login?.tokens.refresh_token, login?.clientInformation.client_secret];
  values.push(pending?.tokens?.access_token, pending?.tokens?.refresh_token, pending?.clientInformation?.client_secret, pending?.codeVerifier);
  return values.filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/**
 * The error a failed code exchange is reported with when the SDK's retry told what the provider
 * refused (it invalidates the client on invalid_client, then fails on its own terms without one).
 */
export function refusalError(pending: PendingLogin): Error | undefined {
  return pending.refused ? new Error(REFUSALS[pending.refused]) : undefined;
}

/** Why a login's code exchange failed, by what the provider refused (the SDK's retry tells which). */
const REFUSALS = {
  code: 'the provider refused the authorization code, which is sent only once',
  client: 'the provider refused this client (invalid_client: it does not know its registration or revoked it); start the login again, which registers anew',
} as const;
