import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { UpstreamAuth } from '../upstreamTarget.js';
import type { OAuthManager } from './oauthManager.js';

/**
 * Wraps an upstream's fetch with its OAuth token. The token goes only to the configured origin, on
 * requests that never follow a redirect by themselves; a 401 gets one shared refresh and exactly
 * one resend (authentication handling, not a tool retry); a refusal that stays is reported to the
 * manager, which moves the server to `required` and tells the caller why.
 */
export function authorizedFetch(manager: OAuthManager, inner: FetchLike): FetchLike {
  return async (url, init) => {
    if (new URL(url).origin !== manager.origin) return inner(url, withoutToken(init));
    const token = await manager.accessToken();
    const first = await inner(url, withToken(init, token));
    if (first.status !== 401) return settle(manager, first, token !== undefined);
    if (!token) return refuse(manager, first, false);
    const renewed = await manager.renewAfterRejection(token);
    if (!renewed) return refuse(manager, first, true);
    await first.body?.cancel().catch(() => {});
    return settle(manager, await inner(url, withToken(init, renewed)), true);
  };
}

async function settle(manager: OAuthManager, response: Response, hadToken: boolean): Promise<Response> {
  if (response.status === 401 || response.status === 403) {
    const challenged = response.status === 401 || /insufficient_scope/.test(response.headers.get('www-authenticate') ?? '');
    if (challenged) return refuse(manager, response, hadToken);
  }
  if (response.ok && hadToken) manager.succeeded();
  return response;
}

/** Leaves the refusal to the caller (the SDK reports the status) after the manager has recorded why. */
function refuse(manager: OAuthManager, response: Response, hadToken: boolean): Response {
  manager.refused(response, hadToken);
  return response;
}

function withToken(init: RequestInit | undefined, token: string | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  else headers.delete('authorization');
  // A redirect is answered to the SDK, never followed here with the token attached.
  return { ...init, headers, redirect: 'manual' };
}

function withoutToken(init: RequestInit | undefined): RequestInit {
  const headers = new Headers(init?.headers);
  headers.delete('authorization');
  return { ...init, headers };
}

/** The manager as the upstream client sees it: a fetch wrapper and the refusal behind a failure. */
export function upstreamAuthOf(manager: OAuthManager): UpstreamAuth {
  return { wrapFetch: (inner) => authorizedFetch(manager, inner), refusal: () => manager.lastRefusal };
}
