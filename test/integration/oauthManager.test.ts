import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger, type OAuthLoginStore, type StoredOAuthLogin } from '../../gateway/core/index.js';
import { OAuthManager, PENDING_LOGIN_TTL_MS, oauthSignature, type OAuthManagerOptions, type OAuthStatus } from '../../gateway/upstream/index.js';
import { FakeClock } from '../fixtures/brokerDoubles.js';
import { approve } from '../fixtures/oauth/oauthLogin.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';

let upstream: ProtectedMcp;
beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: 120 });
});
afterAll(async () => {
  await upstream?.close();
});

function memoryStore(): OAuthLoginStore & { saved: Map<string, StoredOAuthLogin> } {
  const saved = new Map<string, StoredOAuthLogin>();
  return { saved, load: async () => Object.fromEntries(saved), save: async (id, login) => void (login ? saved.set(id, login) : saved.delete(id)) };
}

function manager(clock: FakeClock, store: OAuthLoginStore, more: Partial<Pick<OAuthManagerOptions, 'log' | 'onChange'>> = {}) {
  const config = { url: upstream.mcpUrl, transport: 'http' as const, auth: { mode: 'oauth' as const } };
  return new OAuthManager({ serverId: 'custom-000000000001', ...config, settings: config.auth, signature: oauthSignature(config), store, clock, log: silentLogger, ...more });
}

/** The statuses a manager reports; `next(test)` resolves at the first one from now on that passes `test`. */
function statusWatch() {
  const waiting: Array<{ test: (status: OAuthStatus) => boolean; resolve: (status: OAuthStatus) => void }> = [];
  const onChange = (status: OAuthStatus) => waiting.splice(0).forEach((w) => (w.test(status) ? w.resolve(status) : waiting.push(w)));
  const next = (test: (status: OAuthStatus) => boolean) => new Promise<OAuthStatus>((resolve) => waiting.push({ test, resolve }));
  return { onChange, next };
}

/** A logger that keeps nothing but resolves `warned()` at each warning with `message`. */
function warningWatch(message: string) {
  let resolveNext: (() => void) | undefined;
  const log: Logger = {
    ...silentLogger,
    warn: (_obj, msg) => void (msg === message && resolveNext?.()),
  };
  const warned = () => new Promise<void>((resolve) => (resolveNext = resolve));
  return { log, warned };
}

const POSTPONED = 'OAuth token renewal postponed: the access token is still valid and is sent until it expires';

const REDIRECT = 'http://127.0.0.1:9/api/mcp/oauth/callback';
const stateAndCode = (callbackUrl: string) => {
  const params = new URL(callbackUrl).searchParams;
  return { state: params.get('state')!, code: params.get('code')! };
};


/** A whole login on `oauth` (begin, the provider's approval, finish); returns the access token it was issued. */
async function logIn(oauth: OAuthManager): Promise<string | undefined> {
  const callback = stateAndCode(await approve((await oauth.begin(REDIRECT)).authorizationUrl));
  await oauth.finish(callback.state, callback);
  return upstream.provider.issued.accessTokens.at(-1);
}

/** Holds the next request to the provider's token endpoint until `release()` (the hook is the test's to clear). */
function holdNextTokenRequest(): { arrived(): Promise<void>; release(): void } {
  let release: (() => void) | undefined;
  upstream.asHook = (req, _res, next) => {
    if (req.path !== '/token' || release) return next();
    release = next;
  };
  return { arrived: () => vi.waitFor(() => expect(release).toBeDefined()), release: () => release!() };
}
describe('OAuthManager against a real authorization server (fake gateway clock)', () => {
  it('refuses a pending login older than 10 minutes before exchanging its code', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const oauth = manager(clock, store);
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    const exchanges = upstream.provider.codeExchanges;
    clock.advance(PENDING_LOGIN_TTL_MS + 1);
    await expect(oauth.finish(state, { code })).rejects.toMatchObject({ message: expect.stringMatching(/expired/) });
    expect(upstream.provider.codeExchanges).toBe(exchanges);
    expect(store.saved.size).toBe(0);
    expect(oauth.status.state).toBe('required');
    // Consumed: the same state is unknown now.
    await expect(oauth.finish(state, { code })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a login nobody finishes stops showing "authorizing" after 10 minutes', async () => {
    const clock = new FakeClock();
    const oauth = manager(clock, memoryStore());
    await oauth.begin(REDIRECT);
    expect(oauth.status.state).toBe('authorizing');
    clock.advance(PENDING_LOGIN_TTL_MS + 1);
    expect(oauth.status).toMatchObject({ state: 'required', message: expect.stringMatching(/10 minutes/) });
  });

  it('renews a token about to expire, and a clear during that renewal restores nothing', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const watch = statusWatch();
    const oauth = manager(clock, store, { onChange: watch.onChange });
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await oauth.finish(state, { code });
    const first = await oauth.accessToken();
    expect(first).toBe(upstream.provider.issued.accessTokens.at(-1));
    clock.advance(50_000);
    expect(await oauth.accessToken()).toBe(first);
    const refreshes = upstream.provider.refreshes;
    // Within a minute of its 120 s lifetime: still sent, and renewed meanwhile.
    clock.advance(11_000);
    const expiresAt = oauth.status.expiresAt;
    const renewal = watch.next((status) => status.state === 'authorized' && status.expiresAt !== expiresAt);
    expect(await oauth.accessToken()).toBe(first);
    await renewal;
    const renewed = await oauth.accessToken();
    expect(renewed).not.toBe(first);
    expect(upstream.provider.refreshes).toBe(refreshes + 1);
    clock.advance(120_000);
    const racing = oauth.accessToken();
    await oauth.clear();
    expect(await racing).toBeUndefined();
    expect(store.saved.size).toBe(0);
    expect(oauth.status.state).toBe('required');
  });

  it('a provider that refuses the refresh moves the server to "expired"', async () => {
    const clock = new FakeClock();
    const oauth = manager(clock, memoryStore());
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await oauth.finish(state, { code });
    upstream.provider.revokeRefreshTokens();
    clock.advance(120_000);
    expect(await oauth.accessToken()).toBeUndefined();
    expect(oauth.status).toMatchObject({ state: 'expired', message: expect.stringMatching(/log in/) });
  });

  it('a token due for renewal but not expired is sent at once while one renewal waits in the background for a provider that holds its answer', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const watch = statusWatch();
    const oauth = manager(clock, store, { onChange: watch.onChange });
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await oauth.finish(state, { code });
    const token = upstream.provider.issued.accessTokens.at(-1);
    const expiresAt = oauth.status.expiresAt;
    const tokenRequests = () => upstream.asRequests.filter((r) => r.path === '/token').length;
    const asked = tokenRequests();
    // The token endpoint holds every request until the test lets them go.
    const held: Array<() => void> = [];
    upstream.asHook = (req, _res, next) => (req.path === '/token' ? void held.push(next) : next());
    try {
      // 30 s before the end of its 120 s lifetime: due for renewal, still valid.
      clock.advance(90_000);
      let sent: string | undefined | 'waiting' = 'waiting';
      void oauth.accessToken().then((t) => (sent = t));
      await vi.waitFor(() => expect(held).toHaveLength(1));
      // The renewal has reached the provider and has no answer: the call went ahead without it.
      expect(sent).toBe(token);
      clock.advance(10_000);
      expect(await oauth.accessToken()).toBe(token);
      const renewed = watch.next((status) => status.state === 'authorized' && status.expiresAt !== expiresAt);
      upstream.asHook = undefined;
      held.splice(0).forEach((release) => release());
      await renewed;
    } finally {
      upstream.asHook = undefined;
      held.splice(0).forEach((release) => release());
    }
    // One renewal for both calls, and its token is sent from now on.
    const next = upstream.provider.issued.accessTokens.at(-1);
    expect(next).not.toBe(token);
    expect(tokenRequests()).toBe(asked + 1);
    expect(await oauth.accessToken()).toBe(next);
    expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(next);
  });

  it('a renewal before expiry that the provider cannot answer now sends the token in hand and keeps the login; once the token has expired the failure is reported', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const { log, warned } = warningWatch(POSTPONED);
    const oauth = manager(clock, store, { log });
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await oauth.finish(state, { code });
    const token = upstream.provider.issued.accessTokens.at(-1);
    const tokenRequests = () => upstream.asRequests.filter((r) => r.path === '/token').length;
    upstream.asHook = (req, res, next) => (req.path === '/token' ? void res.status(503).json({ error: 'temporarily_unavailable' }) : next());
    try {
      // 30 s before the end of its 120 s lifetime: due for renewal, still valid.
      clock.advance(90_000);
      const asked = tokenRequests();
      let failed = warned();
      expect(await oauth.accessToken()).toBe(token);
      // The renewal failed in the background: a warning, no rejection left unhandled, the login kept.
      await failed;
      expect(tokenRequests()).toBe(asked + 1);
      expect(oauth.status.state).toBe('authorized');
      expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(token);
      // The next call tries again.
      failed = warned();
      expect(await oauth.accessToken()).toBe(token);
      await failed;
      expect(tokenRequests()).toBe(asked + 2);
      // A token the server refused (401) is not sent again: the failure is reported.
      await expect(oauth.renewAfterRejection(token!)).rejects.toMatchObject({ code: 'upstream_unavailable', retryable: true });
      clock.advance(30_000);
      await expect(oauth.accessToken()).rejects.toMatchObject({ code: 'upstream_unavailable', retryable: true, message: expect.stringMatching(/try again shortly/) });
      expect(oauth.status.state).toBe('authorized');
    } finally {
      upstream.asHook = undefined;
    }
    const renewed = await oauth.accessToken();
    expect(renewed).not.toBe(token);
    expect(renewed).toBe(upstream.provider.issued.accessTokens.at(-1));
  });

  it('a renewal before expiry that the provider refuses (invalid_grant) still moves the server to "expired"', async () => {
    const clock = new FakeClock();
    const watch = statusWatch();
    const oauth = manager(clock, memoryStore(), { onChange: watch.onChange });
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await oauth.finish(state, { code });
    const token = upstream.provider.issued.accessTokens.at(-1);
    upstream.provider.revokeRefreshTokens();
    clock.advance(90_000);
    const expired = watch.next((status) => status.state === 'expired');
    // Still valid: sent while the renewal runs, which the provider refuses.
    expect(await oauth.accessToken()).toBe(token);
    expect(await expired).toMatchObject({ message: expect.stringMatching(/refused to renew the token \(OAuth error invalid_grant\); log in/) });
    expect(await oauth.accessToken()).toBeUndefined();
  });

  it('a saved expiry no date can show (written by an earlier version) is dropped on load, not thrown at every status', async () => {
    const store = memoryStore();
    const config = { url: upstream.mcpUrl, transport: 'http' as const, auth: { mode: 'oauth' as const } };
    store.saved.set('custom-000000000001', {
      signature: oauthSignature(config), redirectUri: REDIRECT, clientInformation: { client_id: 'c' }, tokens: { access_token: 'a', token_type: 'bearer' },
      discovery: {}, expiresAt: 1e17,
    });
    const oauth = manager(new FakeClock(), store);
    await oauth.load();
    expect(oauth.status).toEqual({ state: 'authorized', message: 'logged in' });
    expect(await oauth.accessToken()).toBe('a');
  });

  it('a token without a refresh token is sent until it expires, then the server is "expired"', async () => {
    const clock = new FakeClock();
    const oauth = manager(clock, memoryStore());
    const { authorizationUrl } = await oauth.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    upstream.asHook = (req, res, next) => {
      const json = res.json.bind(res);
      res.json = (body: Record<string, unknown>) => json(Object.fromEntries(Object.entries(body ?? {}).filter(([key]) => key !== 'refresh_token')));
      next();
    };
    try {
      await oauth.finish(state, { code });
    } finally {
      upstream.asHook = undefined;
    }
    const token = upstream.provider.issued.accessTokens.at(-1);
    clock.advance(110_000);
    expect(await oauth.accessToken()).toBe(token);
    clock.advance(10_000);
    expect(await oauth.accessToken()).toBeUndefined();
    expect(oauth.status).toMatchObject({ state: 'expired', message: expect.stringMatching(/no refresh token; log in/) });
  });

  it('two replicas on one store: the refresh that lost the race (its refresh token rotated away) adopts the saved tokens, not "expired"', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const first = manager(clock, store);
    const { authorizationUrl } = await first.begin(REDIRECT);
    const { state, code } = stateAndCode(await approve(authorizationUrl));
    await first.finish(state, { code });
    const second = manager(clock, store);
    await second.load();
    clock.advance(120_000);
    const renewed = await first.accessToken();
    expect(renewed).toBe(upstream.provider.issued.accessTokens.at(-1));
    expect(await second.accessToken()).toBe(renewed);
    expect(second.status.state).toBe('authorized');
    expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(renewed);
    expect(await first.accessToken()).toBe(renewed);
  });

  it('a refresh still running when a new login finishes does not bring the old login back over it', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const oauth = manager(clock, store);
    await logIn(oauth);
    const tokenRequest = holdNextTokenRequest();
    try {
      clock.advance(120_000);
      const renewing = oauth.accessToken();
      await tokenRequest.arrived();
      const newLogin = await logIn(oauth);
      tokenRequest.release();
      expect(await renewing).toBe(newLogin);
      expect(await oauth.accessToken()).toBe(newLogin);
      expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(newLogin);
    } finally {
      upstream.asHook = undefined;
    }
  });

  it('a background renewal still running when a new login finishes does not bring the old login back over it', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    const oauth = manager(clock, store);
    const token = await logIn(oauth);
    const tokenRequest = holdNextTokenRequest();
    try {
      clock.advance(90_000);
      const sending = oauth.accessToken();
      await tokenRequest.arrived();
      // Joins the renewal the call left running (one shared task), to see how it ends.
      const renewing = oauth.refresh();
      const newLogin = await logIn(oauth);
      tokenRequest.release();
      expect(await sending).toBe(token);
      expect(await renewing).toBe(newLogin);
      expect(await oauth.accessToken()).toBe(newLogin);
      expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(newLogin);
    } finally {
      upstream.asHook = undefined;
    }
  });

  it('a new login that finishes while a refresh saves its tokens stays the saved one', async () => {
    const clock = new FakeClock();
    const store = memoryStore();
    let held: (() => void) | undefined;
    let holdNext = false;
    // The refresh's save is written last, as a slow store would.
    const slow: OAuthLoginStore = {
      load: store.load,
      save: (id, login) => (holdNext ? ((holdNext = false), new Promise<void>((resolve) => (held = () => void store.save(id, login).then(resolve)))) : store.save(id, login)),
    };
    const oauth = manager(clock, slow);
    await logIn(oauth);
    clock.advance(120_000);
    holdNext = true;
    const renewing = oauth.accessToken();
    await vi.waitFor(() => expect(held).toBeDefined());
    const newLogin = await logIn(oauth);
    held!();
    expect(await renewing).toBe(newLogin);
    expect(store.saved.get('custom-000000000001')?.tokens.access_token).toBe(newLogin);
  });
});
