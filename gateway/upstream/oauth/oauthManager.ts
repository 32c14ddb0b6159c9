import { randomBytes } from 'node:crypto';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CustomUrlPolicy, OAuthSettings } from '../../../catalog/index.js';
import { GatewayError, type Clock, type Logger, type OAuthLoginStore, type StoredOAuthLogin } from '../../core/index.js';
import { loginProvider, refusalError, secretsOf, type PendingLogin } from './loginProvider.js';
import { probeChallenge, type Challenge } from './probeChallenge.js';
import { providerAccess } from './providerAccess.js';
import type { ProviderTrace } from './providerTrace.js';
import { decideCallback, type CallbackOutcome } from './callbackOutcome.js';
import { loginError, refreshLogin } from './refreshLogin.js';
import type { OAuthStatus } from './oauthStatus.js';
import { decideRefusal, failedLoginStatus, loginMessage } from './refusalStatus.js';
import { loginFromPending, withRenewedTokens } from './savedLogin.js';
import { hasExpired, renewalDueAt, withUsableExpiry } from './tokenExpiry.js';

export type { OAuthState, OAuthStatus } from './oauthStatus.js';

export interface OAuthManagerOptions {
  serverId: string;
  url: string;
  transport: 'http' | 'sse';
  settings: OAuthSettings;
  /** The configuration signature (see `oauthSignature`); a stored login under another one is dropped. */
  signature: string;
  store: OAuthLoginStore;
  clock: Clock;
  log: Logger;
  /** For discovery, registration and token requests (tests point it nowhere else: loopback only). */
  fetch?: FetchLike;
  /** Bound of one request to the authorization server, its answer included; default `PROVIDER_TIMEOUT_MS` (15 s). */
  providerTimeoutMs?: number;
  /** The custom-server URL policy, also applied to the provider's URLs; without it only https-or-loopback and link-local are judged. */
  urlPolicy?: CustomUrlPolicy;
  /** Told whenever the OAuth state or its message changes. */
  onChange?: (status: OAuthStatus) => void;
}

/** How long a started login may take before its callback is refused. */
export const PENDING_LOGIN_TTL_MS = 10 * 60_000;

/**
 * One custom server's OAuth client (seed §5.5), shared by its catalog client, connection tests and
 * the Inspector: logins through the SDK's `auth()` (discovery, registration, PKCE, resource
 * indicators), tokens in the encrypted store, refresh near expiry and after a 401 as one shared
 * task. `generation` moves on at every clear and config change, so async work that began before
 * it (a login finishing, a refresh) cannot bring old credentials back.
 */
export class OAuthManager {
  private login: StoredOAuthLogin | undefined;
  private pending: PendingLogin | undefined;
  private generation = 0;
  private refreshing: Promise<string | undefined> | undefined;
  private challenge: Challenge = {};
  private current: OAuthStatus = { state: 'required', message: '' };
  /** The last authentication refusal, reported instead of a bare HTTP error until a request succeeds. */
  private refusal: GatewayError | undefined;
  /** A registration (dynamic) kept across logins of this configuration, so the provider sees one client. */
  private registered: OAuthClientInformationMixed | undefined;
  /**
   * A start offered `registered` and no login has finished since. A provider that no longer knows
   * the client refuses it at its own page, and the browser never comes back: the next start drops
   * it and registers anew (the saved login keeps its own copy for refreshes).
   */
  private reuseUnconfirmed = false;
  /** The scope the last 403 `insufficient_scope` asked consent for, until a login gives it. */
  private consentAsked: string | undefined;
  /**
   * Set while the current login is a step-up (it was started after a 403 to consent to a scope): the
   * scope it asked for ('' for none). A 403 for that scope again ends in `refused` instead of a third
   * request for the same consent — one step-up, then stop, as the SDK's client auth does. In memory
   * only: after a restart the saved login gets one more step-up.
   */
  private stepUp: string | undefined;
  /** How this manager reaches its servers (see `providerAccess`). */
  private readonly access: ReturnType<typeof providerAccess>;

  constructor(private readonly options: OAuthManagerOptions) {
    this.access = providerAccess(options);
    this.current = { state: 'required', message: this.loginMessage('has no OAuth login yet') };
  }

  /** Tokens and secrets of this login, for the scrubber: no log line or answer shows them. */
  secretValues(): string[] {
    return secretsOf(this.login, this.pending);
  }

  /** The origin that alone receives the access token. */
  get origin(): string {
    return new URL(this.options.url).origin;
  }

  get status(): OAuthStatus {
    // A login nobody finished stops being "authorizing" once its 10 minutes are over.
    const pending = this.pending;
    if (pending && this.options.clock.now() > pending.expiresAt) {
      this.pending = undefined;
      this.setStatus(this.login ? { state: 'authorized', message: 'logged in' } : { state: 'required', message: this.loginMessage('the login was not finished within 10 minutes') });
    }
    // "authorizing" without a pending login would never end on its own: no expiry runs for it.
    if (!this.pending && this.current.state === 'authorizing') this.setStatus(failedLoginStatus(this.options.serverId, this.login !== undefined, 'the login did not finish'));
    return this.current;
  }

  /**
   * Restores the saved login if it belongs to this configuration; a stale one is deleted. Run again
   * (another replica logged in or cleared the login), it adopts what is saved now.
   */
  async load(): Promise<void> {
    const saved = (await this.options.store.load())[this.options.serverId];
    if (!saved) {
      if (this.login) {
        this.login = undefined;
        this.registered = undefined;
        this.setStatus({ state: 'required', message: this.loginMessage('credentials were cleared') });
      }
      return;
    }
    if (saved.signature !== this.options.signature) {
      await this.options.store.save(this.options.serverId, undefined);
      return;
    }
    this.adoptSaved(saved);
  }

  /** Begins a login: discovery, registration and PKCE in the backend; the browser only gets the URL. */
  async begin(redirectUri: string): Promise<{ authorizationUrl: string; expiresAt: string; state: string }> {
    if (!this.challenge.resourceMetadataUrl) this.challenge = { ...(await probeChallenge(this.options, this.access.raw)), ...(this.challenge.scope ? { scope: this.challenge.scope } : {}) };
    const pending: PendingLogin = {
      state: randomBytes(32).toString('base64url'),
      redirectUri,
      generation: this.generation,
      expiresAt: this.options.clock.now() + PENDING_LOGIN_TTL_MS,
      ...(this.challenge.scope ? { scope: this.challenge.scope } : {}),
      ...(this.consentAsked !== undefined ? { stepUp: true } : {}),
    };
    if (this.reuseUnconfirmed) this.registered = undefined;
    const reuse = this.registered && this.login?.redirectUri === redirectUri ? this.registered : undefined;
    if (reuse) pending.clientInformation = reuse;
    this.reuseUnconfirmed = reuse !== undefined;
    this.pending = pending;
    const before = this.current;
    const trace: ProviderTrace = {};
    const ifRefused = reuse ? "; if the provider's page refuses this client (it no longer knows its registration), Cancel and log in again, which registers anew" : '';
    this.setStatus({ state: 'authorizing', message: `waiting for the login in the browser${ifRefused}` });
    try {
      const result = await auth(loginProvider(pending, this.options.settings, this.options.urlPolicy), this.access.authOptions(this.challenge.resourceMetadataUrl, pending.scope, trace));
      if (result !== 'REDIRECT' || !pending.authorizationUrl) throw new Error('the authorization server gave no authorization URL');
    } catch (error) {
      if (this.pending === pending) {
        this.pending = undefined;
        // `before` may be an earlier start's "authorizing", whose login this start replaced.
        this.setStatus(before.state === 'authorizing' ? failedLoginStatus(this.options.serverId, this.login !== undefined, 'the login could not start') : before);
      }
      throw loginError('could not start the login', error, { trace, redirectUri });
    }
    return { authorizationUrl: pending.authorizationUrl.href, expiresAt: new Date(pending.expiresAt).toISOString(), state: pending.state };
  }

  /** True when `state` names this manager's pending login, and its callback has not come yet. */
  owns(state: string): boolean {
    return this.pending !== undefined && !this.pending.finishing && this.pending.state === state;
  }

  /**
   * Finishes the login `state` names: the attempt is marked as finishing first (a replay finds
   * nothing; the status stays "authorizing" while the provider answers), then the code is exchanged
   * with the PKCE verifier, and the tokens are saved unless the configuration was changed or cleared meanwhile.
   */
  async finish(state: string, outcome: CallbackOutcome): Promise<void> {
    const pending = this.pending;
    if (!pending || pending.finishing || pending.state !== state) throw new GatewayError('not_found', 'This login is unknown or was already used; start the login again.');
    pending.finishing = true;
    const decided = decideCallback(pending, outcome, this.options.clock.now());
    if ('error' in decided) {
      this.pending = undefined;
      this.setStatus(failedLoginStatus(this.options.serverId, this.login !== undefined, decided.why));
      throw decided.error;
    }
    const trace: ProviderTrace = {};
    try {
      await auth(loginProvider(pending, this.options.settings, this.options.urlPolicy), { ...this.access.authOptions(this.challenge.resourceMetadataUrl, pending.scope, trace), authorizationCode: decided.code });
    } catch (error) {
      if (this.pending === pending) this.pending = undefined;
      if (pending.generation === this.generation) {
        // A registration the provider refuses is not offered to the next login, which registers anew.
        if (pending.refused === 'client') this.registered = undefined;
        this.setStatus(failedLoginStatus(this.options.serverId, this.login !== undefined, 'code exchange failed'));
      }
      // The SDK's retry after invalid_client says more than the last answer: the registration is gone.
      const refusal = refusalError(pending);
      throw loginError('could not finish the login', refusal ?? error, refusal ? {} : { trace, redirectUri: pending.redirectUri });
    }
    if (this.pending === pending) this.pending = undefined;
    await this.adopt(pending);
  }

  /** Ends a pending login; saved credentials stay. */
  cancel(): void {
    if (!this.pending && this.current.state !== 'authorizing') return;
    this.pending = undefined;
    this.setStatus(this.login ? { state: 'authorized', message: 'logged in' } : { state: 'required', message: this.loginMessage('login was cancelled') });
  }

  /** Deletes the saved login and invalidates pending attempts and running refreshes; revokes nothing. */
  async clear(reason = 'credentials were cleared'): Promise<void> {
    this.generation += 1;
    this.pending = undefined;
    this.login = undefined;
    this.registered = undefined;
    this.refusal = undefined;
    this.challenge = {};
    this.consentAsked = undefined;
    this.stepUp = undefined;
    this.setStatus({ state: 'required', message: this.loginMessage(reason) });
    await this.options.store.save(this.options.serverId, undefined);
  }

  /** Stops all async work of this manager (its server was reconfigured or deleted). */
  retire(): void {
    this.generation += 1;
    this.pending = undefined;
  }

  /**
   * The access token to send now; undefined without a login. One due for renewal (see `renewalDueAt`)
   * but not expired yet is sent at once while a renewal runs in the background: a provider that is
   * slow or down does not hold every call of the last minute. An expired one waits for the renewal.
   */
  async accessToken(): Promise<string | undefined> {
    const login = this.login;
    if (!login) return undefined;
    const dueAt = renewalDueAt(login);
    const now = this.options.clock.now();
    if (dueAt === undefined || now < dueAt) return login.tokens.access_token as string;
    if (!hasExpired(login, now)) {
      this.renewInBackground();
      return login.tokens.access_token as string;
    }
    try {
      return await this.refresh();
    } catch (error) {
      // A new login that finished while the renewal failed is sent instead; a clear leaves none.
      const current = this.login;
      if (!current || !GatewayError.from(error).retryable || hasExpired(current, this.options.clock.now())) throw error;
      return current.tokens.access_token as string;
    }
  }

  /**
   * Starts the shared renewal unless one runs. Nobody waits for it, so its failure is only logged
   * (never an unhandled rejection); the next call that finds the token due starts another. A refusal
   * needs no handling here: `runRefresh` itself moves the server to "expired".
   */
  private renewInBackground(): void {
    if (this.refreshing) return;
    this.refresh().catch((error: unknown) => {
      this.options.log.warn({ sourceId: this.options.serverId, code: GatewayError.from(error).code }, 'OAuth token renewal postponed: the access token is still valid and is sent until it expires');
    });
  }

  /** After a 401 for `rejected`: the token another request already renewed, or one shared refresh. */
  async renewAfterRejection(rejected: string): Promise<string | undefined> {
    const current = this.login?.tokens.access_token as string | undefined;
    if (current && current !== rejected) return current;
    return this.refresh();
  }

  /** Concurrent refreshes of one server share this one task. */
  refresh(): Promise<string | undefined> {
    this.refreshing ??= this.runRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** The server refused a request (401 or 403): the state moves and the refusal is remembered for the caller. */
  refused(response: Response, hadToken: boolean): GatewayError {
    const challenge = extractWWWAuthenticateParams(response);
    this.challenge = {
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl.href } : { resourceMetadataUrl: this.challenge.resourceMetadataUrl }),
      ...(challenge.scope ? { scope: challenge.scope } : this.challenge.scope ? { scope: this.challenge.scope } : {}),
    };
    const decided = decideRefusal({ serverId: this.options.serverId, status: response.status, challenge, hadToken, stepUp: this.stepUp });
    // A login after a 403 consents to the scope it named: a step-up, refused again only once.
    if (decided.consentAsked !== undefined) this.consentAsked = decided.consentAsked;
    const keepExpired = this.current.state === 'expired' && decided.status.state === 'required' && decided.status.requiredScope === undefined;
    // A login under way is what the admin is doing about it: the page keeps its Cancel and provider link.
    const loginUnderWay = this.pending !== undefined && this.options.clock.now() <= this.pending.expiresAt;
    if (!keepExpired && !loginUnderWay) this.setStatus(decided.status);
    this.refusal = decided.refusal;
    return this.refusal;
  }

  /** A request with the token succeeded: earlier refusals no longer describe the server. */
  succeeded(): void {
    this.refusal = undefined;
  }

  /** Why the last request failed, when it was authentication (reported instead of "could not be reached"). */
  get lastRefusal(): GatewayError | undefined {
    return this.refusal;
  }

  private async runRefresh(): Promise<string | undefined> {
    const login = this.login;
    const refreshToken = login?.tokens.refresh_token as string | undefined;
    if (!login || !refreshToken) {
      if (login) await this.expire(login, 'the access token expired and there is no refresh token');
      return undefined;
    }
    const generation = this.generation;
    // A clear or a new login while the provider answers wins over what this refresh learned: the token then in hand is used.
    const replaced = () => generation !== this.generation || this.login !== login;
    let tokens: OAuthTokens | 'refused';
    const trace: ProviderTrace = {};
    try {
      tokens = await refreshLogin(login, refreshToken, this.access.bounded(trace), trace);
    } catch (error) {
      const failure = GatewayError.from(error);
      this.options.log.warn({ sourceId: this.options.serverId, code: failure.code }, 'OAuth token refresh failed');
      throw new GatewayError(failure.code, `${this.options.serverId}: ${failure.message}`, { retryable: failure.retryable });
    }
    if (tokens === 'refused') {
      if (replaced()) return this.login?.tokens.access_token as string | undefined;
      const renewed = await this.renewedElsewhere(login);
      if (renewed !== undefined) return renewed;
      const code = trace.last?.oauthError ? ` (OAuth error ${trace.last.oauthError})` : '';
      await this.expire(login, `the provider refused to renew the token${code}`);
      return undefined;
    }
    if (replaced()) return this.login?.tokens.access_token as string | undefined;
    const next = withRenewedTokens(login, tokens, this.options.clock.now());
    await this.options.store.save(this.options.serverId, next);
    if (generation !== this.generation) return undefined;
    // A login adopted while this save ran was saved before it: it is saved again, so the store keeps the newer login.
    if (this.login !== login) {
      if (this.login) await this.options.store.save(this.options.serverId, this.login);
      return this.login?.tokens.access_token as string | undefined;
    }
    this.login = next;
    this.setStatus({ state: 'authorized', message: 'logged in' });
    return tokens.access_token;
  }

  /** A replica sharing the store renewed first, rotating `login`'s refresh token away: the saved tokens, adopted. */
  private async renewedElsewhere(login: StoredOAuthLogin): Promise<string | undefined> {
    const saved = (await this.options.store.load())[this.options.serverId];
    if (this.login !== login || saved?.signature !== this.options.signature || saved.tokens.refresh_token === login.tokens.refresh_token) return undefined;
    this.adoptSaved(saved);
    return saved.tokens.access_token as string;
  }

  private adoptSaved(saved: StoredOAuthLogin): void {
    this.login = withUsableExpiry(saved);
    this.registered = saved.clientInformation as OAuthClientInformationMixed;
    this.setStatus({ state: 'authorized', message: 'logged in' });
  }

  private async expire(login: StoredOAuthLogin, why: string): Promise<void> {
    if (this.login !== login) return;
    this.login = undefined;
    this.setStatus({ state: 'expired', message: this.loginMessage(why) });
    await this.options.store.save(this.options.serverId, undefined);
  }

  /** Saves what a finished login produced, unless it was overtaken (cleared, reconfigured, retired). */
  private async adopt(pending: PendingLogin): Promise<void> {
    const stale = () => pending.generation !== this.generation;
    const login = stale() ? undefined : loginFromPending(pending, this.options.signature, this.options.clock.now());
    if (!login) throw new GatewayError('conflict', 'The server was changed or its login cleared while this login ran; nothing was saved. Start the login again.');
    await this.options.store.save(this.options.serverId, login);
    if (stale()) {
      await this.options.store.save(this.options.serverId, undefined);
      throw new GatewayError('conflict', 'The server was changed or its login cleared while this login ran; nothing was saved. Start the login again.');
    }
    this.login = login;
    this.registered = pending.clientInformation;
    this.reuseUnconfirmed = false;
    this.refusal = undefined;
    this.stepUp = pending.stepUp ? (pending.scope ?? '') : undefined;
    this.consentAsked = undefined;
    this.challenge = { ...(this.challenge.resourceMetadataUrl ? { resourceMetadataUrl: this.challenge.resourceMetadataUrl } : {}) };
    this.setStatus({ state: 'authorized', message: 'logged in' });
  }

  private loginMessage(why: string): string {
    return loginMessage(this.options.serverId, why);
  }

  private setStatus(given: OAuthStatus): void {
    const expiry = given.state === 'authorized' ? this.login?.expiresAt : undefined;
    const status = expiry === undefined ? given : { ...given, expiresAt: new Date(expiry).toISOString() };
    const same =
      status.state === this.current.state && status.message === this.current.message && status.requiredScope === this.current.requiredScope && status.expiresAt === this.current.expiresAt;
    this.current = status;
    if (!same) this.options.onChange?.(status);
  }
}
