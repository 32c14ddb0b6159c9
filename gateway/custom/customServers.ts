import {
  customSourceManifest, importToCreateRequests, type AcceptToolsRequest, type CreateCustomServer, type CustomServerConfig,
  type CustomUrlPolicy, type ImportServers, type InspectToolRequest, type PatchCustomServer,
} from '../../catalog/index.js';
import { GatewayError, canonicalJson, randomHex } from '../core/index.js';
import { deriveCustomTools } from '../registry/index.js';
import { isNotAnMcpEndpoint, type CallbackOutcome, type ClientRequests, type UpstreamClient } from '../upstream/index.js';
import { CUSTOM_SERVER_MAX_FAILURES, createCustomClient, sharedClientRequests } from './customClients.js';
import { runConnectionTest, type ConnectionTestResult } from './connectionTest.js';
import { acceptedAfter, applyServerPatch, assertServerSet, assertUrlAllowed, buildServerConfig, importedServerConfig, restoreRedacted } from './customServerEdits.js';
import type { CustomServersDeps, ServerState } from './customServerState.js';
import { customServerView, type CustomServerView } from './customServerView.js';
import { CustomOAuth } from './customOAuth.js';
import { secretValuesOf } from './customTarget.js';
import { inspectTool, type InspectResult } from './inspectTool.js';
import { customSourceLabel } from './sourceLabel.js';
import { CUSTOM_SERVERS_CHANGED, startCustomServerSync, type CustomServerSync } from './customServerSync.js';

/**
 * The custom MCP servers an admin manages (seed §5): encrypted config, catalog registration,
 * connection checks, tool acceptance and the Inspector. Mutations run one at a time.
 */
export class CustomServers {
  private readonly states = new Map<string, ServerState>();
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** One OAuth manager per OAuth server, shared by its catalog client, connection tests and the Inspector. */
  readonly oauth: CustomOAuth;
  private startupDiscovery: Promise<void> = Promise.resolve();
  private sync: CustomServerSync | undefined;
  private readonly urlPolicy: CustomUrlPolicy;

  constructor(private readonly deps: CustomServersDeps) {
    const { clock, log, secrets, events, oauthLogins } = deps;
    this.urlPolicy = deps.urlPolicy ?? { allowPrivate: false };
    this.oauth = new CustomOAuth({ clock, log, secrets, urlPolicy: this.urlPolicy, ...(events ? { events } : {}), ...(oauthLogins ? { store: oauthLogins } : {}) });
  }

  /** Loads the saved servers and registers their Source IDs; enabled ones are discovered in the background. */
  async start(): Promise<void> {
    for (const config of await this.deps.store.load()) {
      const state: ServerState = { config, revision: 0 };
      this.states.set(config.id, state);
      await this.oauth.attach(config);
      this.register(state);
    }
    await this.oauth.sweep();
    const refreshing = [...this.states.values()].filter((s) => s.config.enabled).map((s) => this.refresh(s));
    for (const work of refreshing) this.track(work);
    this.startupDiscovery = Promise.allSettled(refreshing).then(() => undefined);
    this.deps.log.info({ servers: this.states.size }, 'custom MCP servers loaded');
    const { store, events, log } = this.deps;
    this.sync = startCustomServerSync({ store, log, reload: () => this.reload(), ...(events ? { events } : {}) });
  }

  /** Closing: stops following other replicas and background discovery; resolves once a save in progress is on disk. */
  async close(): Promise<void> {
    this.closed = true;
    this.sync?.stop();
    await this.chain;
  }

  /** Resolves once the changes other replicas made so far are live here (at once for a store only this process writes). */
  synced(): Promise<void> {
    return this.sync?.check() ?? Promise.resolve();
  }

  /**
   * Loads the saved servers again and makes this replica match what another replica saved: new
   * servers are registered, deleted ones unregistered, changed ones reconfigured (only rediscovered
   * when just their accepted tools changed), and OAuth logins saved or cleared elsewhere adopted.
   */
  reload(): Promise<void> {
    return this.exclusive(async () => {
      const saved = await this.deps.store.load();
      const ids = new Set(saved.map((config) => config.id));
      for (const [id, state] of [...this.states]) if (!ids.has(id)) await this.unregister(id, state);
      const rediscover = new Set<ServerState>();
      for (const config of saved) {
        const state = this.states.get(config.id);
        if (!state) {
          const added: ServerState = { config, revision: 0 };
          this.states.set(config.id, added);
          await this.oauth.attach(config);
          this.register(added);
          rediscover.add(added);
        } else if (canonicalJson(state.config) !== canonicalJson(config)) {
          const onlyTools = canonicalJson({ ...state.config, acceptedTools: null }) === canonicalJson({ ...config, acceptedTools: null });
          if (onlyTools) state.config = config;
          else await this.reconfigure(state, config);
          rediscover.add(state);
        }
      }
      // Logins first: a discovery started before its server's new login would be refused.
      for (const id of await this.oauth.reload()) {
        const state = this.states.get(id);
        if (state) rediscover.add(state);
      }
      for (const state of rediscover) if (state.config.enabled) this.track(this.refresh(state));
      if (rediscover.size > 0) this.deps.log.info({ servers: [...rediscover].map((s) => s.config.id) }, 'custom MCP servers changed by another replica are live here');
    });
  }

  /** Resolves once the enabled servers loaded by `start` have had their first discovery (found or failed). */
  startupDiscovered(): Promise<void> {
    return this.startupDiscovery;
  }

  list(): CustomServerView[] {
    return [...this.states.values()].map((s) => this.view(s));
  }

  get(id: string): CustomServerView {
    return this.view(this.stateOf(id));
  }

  async create(request: CreateCustomServer): Promise<CustomServerView> {
    const state = await this.exclusive(async () => {
      const config = buildServerConfig(request, this.newServerId(), this.now());
      assertServerSet([...this.configs(), config], () => 'name');
      assertUrlAllowed(config, this.urlPolicy, 'url');
      const created: ServerState = { config, revision: 0 };
      this.states.set(config.id, created);
      await this.persist().catch((error: unknown) => {
        this.states.delete(config.id);
        throw error;
      });
      await this.oauth.attach(config);
      this.register(created);
      return created;
    });
    return this.afterSave(state);
  }

  async update(id: string, patch: PatchCustomServer): Promise<CustomServerView> {
    const state = await this.exclusive(async () => {
      const current = this.stateOf(id);
      const next = applyServerPatch(current.config, restoreRedacted(current.config, patch, this.deps.secrets), this.now());
      assertServerSet(this.configs().map((c) => (c.id === id ? next : c)), () => 'name');
      if (patch.url !== undefined || patch.transport !== undefined) assertUrlAllowed(next, this.urlPolicy, 'url');
      // Saved first, then re-registered (which invalidates its checks).
      await this.saveConfig(current, next);
      await this.reconfigure(current, next);
      return current;
    });
    return this.afterSave(state);
  }

  /** Removes config, registration, check state and connector references; uninstalls nothing. */
  remove(id: string): Promise<void> {
    return this.exclusive(async () => {
      const state = this.stateOf(id);
      this.states.delete(id);
      await this.persist().catch((error: unknown) => {
        this.states.set(id, state);
        throw error;
      });
      await this.unregister(id, state);
    });
  }

  /** Unregisters a deleted server: its registration, check state, login and connector references go. */
  private async unregister(id: string, state: ServerState): Promise<void> {
    this.states.delete(id);
    state.revision += 1;
    this.deps.secrets.forget(id);
    await this.oauth.remove(id);
    await this.deps.registry.remove(id);
    await this.deps.selection.forgetSource(id);
    this.deps.log.info({ sourceId: id }, 'custom MCP server deleted');
  }

  /** Validates the whole batch, then saves it all (disabled) or nothing; runs nothing. */
  importServers(document: ImportServers): Promise<CustomServerView[]> {
    return this.exclusive(async () => {
      const created = importToCreateRequests(document).map((request) => importedServerConfig(request, this.newServerId(), this.now()));
      assertServerSet([...this.configs(), ...created], (s) => `mcpServers.${s.name}`);
      for (const config of created) assertUrlAllowed(config, this.urlPolicy, `mcpServers.${config.name}.url`);
      const fresh = created.map((config): ServerState => ({ config, revision: 0 }));
      for (const state of fresh) this.states.set(state.config.id, state);
      await this.persist().catch((error: unknown) => {
        for (const state of fresh) this.states.delete(state.config.id);
        throw error;
      });
      for (const state of fresh) this.register(state);
      return fresh.map((s) => this.view(s));
    });
  }

  /** Probes the server on a separate client; the result becomes its check state unless it was saved meanwhile. */
  async test(id: string): Promise<ConnectionTestResult> {
    const state = this.stateOf(id);
    const revision = state.revision;
    const { environment, toolPrefix, clock, log, secrets, processGroups } = this.deps;
    const auth = this.oauth.authOf(id);
    const result = await runConnectionTest({ config: state.config, environment, toolPrefix, clock, log, secrets, ...(auth ? { auth } : {}), ...(processGroups ? { processGroups } : {}) });
    if (state.revision === revision && this.states.get(id) === state) state.lastTest = result;
    return result;
  }

  /** Accepts the discovered definitions (all, or the named tools) and exposes them again. */
  async acceptTools(id: string, request: AcceptToolsRequest): Promise<CustomServerView> {
    const state = await this.exclusive(async () => {
      const current = this.stateOf(id);
      await this.saveConfig(current, { ...current.config, acceptedTools: acceptedAfter(current, request) });
      return current;
    });
    await this.refresh(state);
    return this.view(state);
  }

  inspect(id: string, request: InspectToolRequest, signal: AbortSignal): Promise<InspectResult> {
    this.stateOf(id);
    return inspectTool(this.deps, id, request, signal);
  }

  /** Begins an OAuth login; `redirectUri` is this gateway's callback on the origin the admin uses. */
  oauthStart(id: string, redirectUri: string): Promise<{ authorizationUrl: string; expiresAt: string }> {
    this.stateOf(id);
    return this.oauth.start(id, redirectUri);
  }

  /** Ends a pending login; saved credentials stay. */
  oauthCancel(id: string): CustomServerView {
    this.oauth.cancel(id);
    return this.get(id);
  }

  /** Deletes the saved login and invalidates pending attempts (no revocation call). */
  async oauthClear(id: string): Promise<CustomServerView> {
    await this.oauth.clear(id);
    return this.get(id);
  }

  /** Finishes a login from the provider's redirect; answers the server's name for the callback page. */
  async oauthCallback(query: { state?: string } & CallbackOutcome): Promise<{ serverId: string; name: string }> {
    const serverId = await this.oauth.callback(query);
    const state = this.states.get(serverId);
    // A fresh login makes an enabled server discoverable now rather than at its next call.
    if (state?.config.enabled) this.track(this.refresh(state));
    return { serverId, name: state?.config.name ?? serverId };
  }

  private register(state: ServerState): void {
    const config = state.config;
    const revision = state.revision;
    this.deps.secrets.register(config.id, () => secretValuesOf(config, this.deps.environment));
    const client = createCustomClient(this.deps, config, {
      clientRequests: sharedClientRequests(config.name),
      auth: this.oauth.authOf(config.id),
      onGiveUp: (error) => this.track(this.disableAfterFailures(state, revision, error.message)),
    });
    this.deps.registry.add(customSourceManifest(config), client, {
      enabled: config.enabled,
      label: customSourceLabel(config, this.configs(), this.builtinIds()),
      derive: (listed) => {
        const accepted = state.config.acceptedTools;
        const label = customSourceLabel(state.config, this.configs(), this.builtinIds());
        const derived = deriveCustomTools({ sourceId: config.id, listed, prefix: this.deps.toolPrefix, accepted, ...(label ? { label } : {}) });
        if (state.revision === revision) state.definitions = derived.definitions;
        return derived;
      },
    });
  }

  /**
   * A connection to a custom server of its own for one Session, whose server-to-client requests
   * (sampling, elicitation, roots) reach that Session's client alone; undefined for unknown ids.
   */
  sessionClient(sourceId: string, clientRequests: ClientRequests): UpstreamClient | undefined {
    const state = this.states.get(sourceId);
    return state ? createCustomClient(this.deps, state.config, { clientRequests, auth: this.oauth.authOf(state.config.id) }) : undefined;
  }

  /** Rediscovers an enabled server's tools; the first successful discovery accepts its definitions. */
  private async refresh(state: ServerState): Promise<void> {
    const revision = state.revision;
    const entry = await this.deps.registry.discover(state.config.id);
    // A failed discovery is retried in the background (the client's backoff spaces the attempts)
    // until it succeeds, the server is saved again, or the client gives up and it is disabled.
    if (entry.discovery.state === 'error') this.track(this.rediscover(state, revision));
    else await this.acceptFirstDiscovery(state, revision);
  }

  private async rediscover(state: ServerState, revision: number): Promise<void> {
    const current = () => !this.closed && state.revision === revision && this.states.get(state.config.id) === state && state.config.enabled;
    for (let attempt = 1; attempt < CUSTOM_SERVER_MAX_FAILURES; attempt++) {
      if (!current() || state.stoppedReason !== undefined) return;
      // Refused for want of a login or a scope: asking again changes nothing; the next login rediscovers.
      if (this.oauth.authOf(state.config.id)?.refusal()) return;
      // A URL reaching no MCP endpoint (a web page, a sign-in redirect) stays so until the admin saves another (which rediscovers).
      if (isNotAnMcpEndpoint(this.deps.registry.get(state.config.id)?.discovery ?? {})) return;
      const entry = await this.deps.registry.discover(state.config.id);
      if (entry.discovery.state !== 'error') return this.acceptFirstDiscovery(state, revision);
    }
  }

  private async acceptFirstDiscovery(state: ServerState, revision: number): Promise<void> {
    const pending = () => !this.closed && state.revision === revision && this.states.get(state.config.id) === state && state.config.acceptedTools === undefined && state.definitions;
    if (!pending()) return;
    // Replicas sharing the store all discover a new server; the first to save accepts its tools, and
    // one whose save meets that (a conflict) takes the accepted tools it saved instead.
    const conflicted = await this.exclusive(async () => {
      if (!pending()) return false;
      return this.saveConfig(state, { ...state.config, acceptedTools: { ...state.definitions } }).then(() => false, (error: unknown) => {
        if (GatewayError.from(error).code === 'conflict') return true;
        throw error;
      });
    });
    if (conflicted) await this.synced();
  }

  /** The client gave up: the server is saved disabled, with the reason shown in its status. */
  private disableAfterFailures(state: ServerState, revision: number, reason: string): Promise<void> {
    return this.exclusive(async () => {
      if (this.closed || state.revision !== revision || this.states.get(state.config.id) !== state) return;
      state.stoppedReason = reason;
      if (state.config.enabled) {
        state.config = { ...state.config, enabled: false, updatedAt: this.now() };
        this.deps.registry.setEnabled(state.config.id, false);
        await this.persist();
      }
      this.deps.log.error({ sourceId: state.config.id, reason }, 'custom MCP server disabled after repeated failures');
    });
  }

  /** Puts `next` in force and saves the set; when the save fails the config before stays in force, as on disk. */
  private async saveConfig(state: ServerState, next: CustomServerConfig): Promise<void> {
    const previous = state.config;
    state.config = next;
    await this.persist().catch((error: unknown) => {
      state.config = previous;
      throw error;
    });
  }

  /** Makes a server's registration match its new config (calls running on the old one finish), invalidating its checks. */
  private async reconfigure(state: ServerState, next: CustomServerConfig): Promise<void> {
    state.config = next;
    state.revision += 1;
    delete state.lastTest;
    delete state.definitions;
    delete state.stoppedReason;
    await this.oauth.attach(next);
    await this.deps.registry.remove(next.id, { drain: true });
    this.register(state);
  }

  private async afterSave(state: ServerState): Promise<CustomServerView> {
    if (state.config.enabled) await this.refresh(state);
    return this.view(state);
  }

  private track(work: Promise<void>): void {
    void work.catch((error: unknown) => this.deps.log.error({ err: error }, 'custom server discovery failed'));
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => {});
    return next;
  }

  private stateOf(id: string): ServerState {
    const state = this.states.get(id);
    if (!state) throw new GatewayError('not_found', `No custom server ${id.slice(0, 80)}; list them with GET /api/mcp/servers.`);
    return state;
  }

  private configs(): CustomServerConfig[] {
    return [...this.states.values()].map((s) => s.config);
  }

  /** Built-in Source IDs: a custom server's label may not take one. */
  private builtinIds(): Set<string> {
    return new Set(this.deps.registry.sources().filter((e) => e.manifest.type !== 'custom').map((e) => e.manifest.id));
  }

  /** Saves the set; the other replicas hear of it at once over the events relay (--redis). */
  private async persist(): Promise<void> {
    await this.deps.store.save(this.configs());
    if (this.deps.events?.relayed) this.deps.events.publish(CUSTOM_SERVERS_CHANGED, null, {});
  }

  private view(state: ServerState): CustomServerView {
    return customServerView(state, this.deps.registry.get(state.config.id), this.oauth.stateOf(state.config.id));
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  private newServerId(): string {
    for (;;) {
      const id = `custom-${randomHex(6)}`;
      if (!this.states.has(id)) return id;
    }
  }
}
