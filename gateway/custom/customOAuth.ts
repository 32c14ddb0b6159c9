import type { CustomServerConfig, CustomUrlPolicy } from '../../catalog/index.js';
import { GatewayError, canonicalJson, type Clock, type EventHub, type Logger, type OAuthLoginStore, type SecretScrubber, type StoredOAuthLogin } from '../core/index.js';
import { OAuthManager, oauthSignature, upstreamAuthOf, type CallbackOutcome, type OAuthStatus, type UpstreamAuth } from '../upstream/index.js';

/** The fixed path of the OAuth callback on the gateway's admin origin. */
export const OAUTH_CALLBACK_PATH = '/api/mcp/oauth/callback';

export interface CustomOAuthDeps {
  /** `mcp-oauth.enc`; an in-memory store when none is given (logins then end with the process). */
  store?: OAuthLoginStore;
  clock: Clock;
  log: Logger;
  secrets: SecretScrubber;
  /** Where `custom_server.oauth` events go (the admin page's live updates). */
  events?: EventHub;
  /** The custom-server URL policy, applied to the OAuth provider's URLs as to the MCP URL. */
  urlPolicy?: CustomUrlPolicy;
}

/** The OAuth state a server view shows: `not_required` without OAuth. */
export type AuthStateView = OAuthStatus['state'] | 'not_required';

/** The OAuth part of a server view; `authExpiresAt` is the access token's expiry while authorized. */
export interface ServerAuthView {
  authState: AuthStateView;
  authMessage: string | null;
  requiredScope: string | null;
  authExpiresAt: string | null;
}

/**
 * One OAuth manager per custom server in OAuth mode, kept while its signature (URL, transport, auth
 * settings) stays the same; a changed signature clears the old login and retires its manager, so
 * nothing that manager still runs can restore credentials.
 */
export class CustomOAuth {
  private readonly managers = new Map<string, { signature: string; manager: OAuthManager }>();
  private readonly store: OAuthLoginStore;
  private readonly saved: OAuthLoginStore;
  /** Each server's login as this process last read or wrote it (canonical JSON): `reload` adopts what differs. */
  private readonly known = new Map<string, string>();

  constructor(private readonly deps: CustomOAuthDeps) {
    this.saved = deps.store ?? memoryLoginStore();
    this.store = trackedLogins(this.saved, this.known);
  }

  /**
   * Adopts the logins another replica saved or cleared since this process last read them (a store
   * the replicas share); answers the servers whose login changed. A server whose saved login is
   * unchanged keeps its manager's state (a login in progress here included).
   */
  async reload(): Promise<string[]> {
    const saved = await this.saved.load();
    const changed: string[] = [];
    for (const [id, held] of this.managers) {
      if ((this.known.get(id) ?? '') === loginJson(saved[id])) continue;
      await held.manager.load();
      changed.push(id);
    }
    return changed;
  }

  /** Makes the server's manager match its config (create, keep, or replace and clear). */
  async attach(config: CustomServerConfig): Promise<void> {
    const held = this.managers.get(config.id);
    if (config.transport === 'stdio' || config.auth.mode !== 'oauth') {
      if (held) await this.detach(config.id, 'OAuth was turned off');
      return;
    }
    const signature = oauthSignature(config);
    if (held?.signature === signature) return;
    if (held) await this.detach(config.id, "the server's URL, transport or OAuth settings changed");
    const manager = new OAuthManager({
      serverId: config.id, url: config.url, transport: config.transport, settings: config.auth, signature, store: this.store,
      clock: this.deps.clock, log: this.deps.log, ...(this.deps.urlPolicy ? { urlPolicy: this.deps.urlPolicy } : {}),
      onChange: (status) => this.deps.events?.publish('custom_server.oauth', null, { serverId: config.id, ...viewOf(status) }),
    });
    this.managers.set(config.id, { signature, manager });
    this.deps.secrets.register(`${config.id}#oauth`, () => manager.secretValues());
    await manager.load();
  }

  /** Deletes saved logins of servers that are gone or no longer use OAuth (after start-up). */
  async sweep(): Promise<void> {
    for (const id of Object.keys(await this.store.load())) if (!this.managers.has(id)) await this.store.save(id, undefined);
  }

  /** The server was deleted: its login goes too. */
  async remove(id: string): Promise<void> {
    if (this.managers.has(id)) await this.detach(id, 'the server was deleted');
  }

  authOf(id: string): UpstreamAuth | undefined {
    const held = this.managers.get(id);
    return held ? upstreamAuthOf(held.manager) : undefined;
  }

  stateOf(id: string): ServerAuthView {
    const held = this.managers.get(id);
    if (!held) return { authState: 'not_required', authMessage: null, requiredScope: null, authExpiresAt: null };
    const view = viewOf(held.manager.status);
    return { authState: view.authState, authMessage: view.message, requiredScope: view.requiredScope, authExpiresAt: view.expiresAt };
  }

  start(id: string, redirectUri: string): Promise<{ authorizationUrl: string; expiresAt: string }> {
    return this.managerOf(id)
      .begin(redirectUri)
      .then(({ authorizationUrl, expiresAt }) => ({ authorizationUrl, expiresAt }));
  }

  /** Finishes the login whose one-use `state` the provider sent back; answers the server id. */
  async callback(query: { state?: string } & CallbackOutcome): Promise<string> {
    const state = query.state ?? '';
    const entry = [...this.managers.entries()].find(([, held]) => state !== '' && held.manager.owns(state));
    if (!entry) throw new GatewayError('not_found', 'This login is unknown, expired or was already used; start the login again from the admin page.');
    const { state: _state, ...outcome } = query;
    await entry[1].manager.finish(state, outcome);
    return entry[0];
  }

  cancel(id: string): void {
    this.managerOf(id).cancel();
  }

  clear(id: string): Promise<void> {
    return this.managerOf(id).clear();
  }

  private async detach(id: string, reason: string): Promise<void> {
    const held = this.managers.get(id);
    if (!held) return;
    this.managers.delete(id);
    this.deps.secrets.forget(`${id}#oauth`);
    await held.manager.clear(reason);
    held.manager.retire();
  }

  private managerOf(id: string): OAuthManager {
    const held = this.managers.get(id);
    if (!held) throw new GatewayError('conflict', `${id} does not use OAuth; set auth.mode to "oauth" (http or sse servers) first.`);
    return held.manager;
  }
}

function viewOf(status: OAuthStatus): { authState: OAuthStatus['state']; message: string; requiredScope: string | null; expiresAt: string | null } {
  return { authState: status.state, message: status.message, requiredScope: status.requiredScope ?? null, expiresAt: status.expiresAt ?? null };
}

function loginJson(login: StoredOAuthLogin | undefined): string {
  return login ? canonicalJson(login) : '';
}

/** `store`, noting in `known` every login it loads or saves. */
function trackedLogins(store: OAuthLoginStore, known: Map<string, string>): OAuthLoginStore {
  return {
    load: async () => {
      const logins = await store.load();
      for (const id of known.keys()) if (!(id in logins)) known.set(id, '');
      for (const [id, login] of Object.entries(logins)) known.set(id, loginJson(login));
      return logins;
    },
    save: async (id, login) => {
      await store.save(id, login);
      known.set(id, loginJson(login));
    },
  };
}

function memoryLoginStore(): OAuthLoginStore {
  const logins = new Map<string, StoredOAuthLogin>();
  return {
    load: async () => Object.fromEntries(logins),
    save: async (id, login) => {
      if (login) logins.set(id, login);
      else logins.delete(id);
    },
  };
}
