import { badge, h, when } from './dom.js';

const AUTH_TONE = { not_required: 'idle', authorized: 'ok', authorizing: 'warn', required: 'warn', expired: 'bad', refused: 'bad' };
const AUTH_WORDS = {
  not_required: 'no login needed', authorized: 'authorized', authorizing: 'login in progress', required: 'login required', expired: 'login expired', refused: 'scope refused',
};

/** The server's OAuth state as a badge (words, not colour alone). */
export function authBadge(server) {
  return badge('Auth', AUTH_WORDS[server.authState] ?? server.authState, AUTH_TONE[server.authState] ?? 'idle');
}

/**
 * The Authorization block of a server's details: state, what to do next, the access token's
 * expiry (a refresh moves it, live), the login this page started while it waits, and the OAuth
 * actions: Log in always, Cancel only while a login waits, Clear for the saved login.
 * `oauth` is null on a gateway without the OAuth API; else `{ pending }` (see oauthActions.js).
 */
export function authSection(server, act, oauth) {
  const oauthMode = server.auth?.mode === 'oauth';
  const authorizing = server.authState === 'authorizing';
  return h('section', { class: 'detail-block', 'aria-label': 'Authorization' },
    h('h4', {}, 'Authorization'),
    h('p', {}, authBadge(server)),
    server.authMessage ? h('p', { class: 'muted' }, server.authMessage) : null,
    server.requiredScope ? h('p', { class: 'muted' }, `${server.authState === 'refused' ? 'Refused even after consent' : 'Consent needed'} for scope: ${server.requiredScope}`) : null,
    server.authExpiresAt ? h('p', { class: 'token-expiry' }, 'Access token valid until ', h('time', { datetime: server.authExpiresAt }, when(server.authExpiresAt)),
      '; the gateway renews it before then.') : null,
    authorizing && oauth?.pending ? pendingLogin(oauth.pending) : null,
    oauthMode && oauth
      ? h('div', { class: 'actions' },
        h('button', { type: 'button', onclick: () => act('oauth-start', server) }, server.authState === 'authorized' ? 'Log in again' : 'Log in'),
        authorizing ? h('button', { type: 'button', class: 'secondary', onclick: () => act('oauth-cancel', server) }, 'Cancel login') : null,
        h('button', { type: 'button', class: 'danger', onclick: () => act('oauth-clear', server) }, 'Clear credentials'))
      : h('p', { class: 'hint' }, oauthMode ? 'OAuth login is not available on this gateway version.' : 'This server uses no OAuth login.'));
}

/** A login this page started: until when it may be finished, and its page again (for a blocked or closed tab). */
function pendingLogin(pending) {
  return h('p', { class: 'pending-login' },
    `Waiting for the login in the provider's page, until ${when(pending.expiresAt)}. `,
    h('a', { href: pending.authorizationUrl, target: '_blank', rel: 'noopener noreferrer' }, "Open the provider's login page"));
}
