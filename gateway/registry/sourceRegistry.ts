import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SourceManifest, ToolPrefix } from '../../catalog/index.js';
import { GatewayError, type Clock, type Logger } from '../core/index.js';
import type { UpstreamClient } from '../upstream/index.js';
import { deriveBuiltinTools, type DerivedTools, type GovernedTool, type HiddenTool } from './governedTool.js';

export type DiscoveryState = 'pending' | 'ready' | 'error';

/** One source in the catalog: its manifest, its upstream client and what discovery found. */
export interface SourceEntry {
  manifest: SourceManifest;
  client: UpstreamClient;
  enabled: boolean;
  /**
   * `code` and `details`: the GatewayError's of a failed discovery (auth_required when it wants a
   * login; details saying what a URL that is no MCP endpoint answered with).
   */
  discovery: { state: DiscoveryState; error?: string; code?: string; details?: Record<string, unknown>; discoveredAt?: string };
  tools: GovernedTool[];
  hidden: HiddenTool[];
  /** A custom server's readable name in agent-facing names, from its last discovery (else its Source ID is used). */
  label?: string;
  /** How listed tools become governed tools; built-ins match their manifest, custom servers adapt generically. */
  derive?: (listed: Tool[]) => DerivedTools;
}

export interface SourceRegistryOptions {
  toolPrefix: ToolPrefix;
  log: Logger;
  clock: Clock;
}

/**
 * The catalog at run time: which sources exist, which of their tools passed discovery, and who
 * must hear when that changes (connected sessions get `notifications/tools/list_changed`).
 */
export class SourceRegistry {
  private readonly entries = new Map<string, SourceEntry>();
  private readonly byName = new Map<string, GovernedTool>();
  private readonly listeners = new Set<() => void>();
  /** Clients of removed sources waiting for their running calls to end (closed with the registry). */
  private readonly retiring = new Set<UpstreamClient>();
  private discovering: Promise<void> = Promise.resolve();

  constructor(private readonly options: SourceRegistryOptions) {}

  /** How agent-facing names begin (`mcp__…` or none). */
  get toolPrefix(): ToolPrefix {
    return this.options.toolPrefix;
  }

  /** `label`, when known before any discovery (a custom server's name), lets `failedSourceOf` find it. */
  add(manifest: SourceManifest, client: UpstreamClient, options: { enabled?: boolean; derive?: SourceEntry['derive']; label?: string } = {}): SourceEntry {
    if (this.entries.has(manifest.id)) throw new Error(`source "${manifest.id}" is already registered`);
    const entry: SourceEntry = {
      manifest,
      client,
      enabled: options.enabled ?? true,
      discovery: { state: 'pending' },
      tools: [],
      hidden: [],
      ...(options.derive ? { derive: options.derive } : {}),
      ...(options.label ? { label: options.label } : {}),
    };
    this.entries.set(manifest.id, entry);
    return entry;
  }

  /**
   * Takes a source out of the catalog. Its client closes at once, ending running calls (a deleted
   * server), or with `drain` once they have ended (a server re-registered with an edited config).
   */
  async remove(id: string, { drain = false } = {}): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.reindex();
    if (!drain) return entry.client.close();
    this.retiring.add(entry.client);
    void entry.client
      .retire()
      .catch(() => {})
      .finally(() => this.retiring.delete(entry.client));
  }

  /** Lists the source's tools upstream and rebuilds its governed tools; a failure hides them all. */
  async discover(id: string): Promise<SourceEntry> {
    const entry = this.require(id);
    try {
      const listed = await entry.client.listTools();
      const derived = entry.derive ? entry.derive(listed) : deriveBuiltinTools(entry.manifest, listed, this.options.toolPrefix);
      entry.tools = derived.tools;
      entry.hidden = derived.hidden;
      if (derived.label) entry.label = derived.label;
      else delete entry.label;
      entry.discovery = { state: 'ready', discoveredAt: new Date(this.options.clock.now()).toISOString() };
    } catch (error) {
      entry.tools = [];
      entry.hidden = [];
      const failure = error instanceof GatewayError ? { code: error.code, ...(error.details ? { details: error.details } : {}) } : {};
      entry.discovery = { state: 'error', error: (error as Error).message, ...failure };
      this.options.log.warn({ sourceId: id, err: (error as Error).message }, 'discovery failed; its tools are hidden');
    }
    this.reindex();
    return entry;
  }

  async discoverAll(): Promise<void> {
    // A disabled custom server's program is never started by the catalog; enabling it discovers it.
    const due = [...this.entries.values()].filter((e) => e.enabled || e.manifest.type !== 'custom');
    const run = Promise.all(due.map((e) => this.discover(e.manifest.id))).then(() => undefined);
    this.discovering = run;
    await run;
  }

  /**
   * Resolves when the latest catalog-wide discovery has finished (at once when none ran). Start-up
   * discovers in the background so a stdio client's `initialize` is answered while the sources'
   * code loads; tools/list and tools/call wait here instead of seeing a half-built catalog.
   */
  settled(): Promise<void> {
    return this.discovering;
  }

  /** The governed tool behind an agent-facing name, if it is currently exposed. */
  resolve(name: string): GovernedTool | undefined {
    return this.byName.get(name);
  }

  /**
   * The enabled source whose tools `name` is shaped like (`mcp__<label or Source ID>__…`) while
   * its discovery has failed: a name an agent kept from before is then explained, not just unknown.
   */
  failedSourceOf(name: string): SourceEntry | undefined {
    const rest = this.options.toolPrefix === 'mcp' ? (name.startsWith('mcp__') ? name.slice(5) : '') : name;
    const part = rest.split('__')[0];
    if (!part) return undefined;
    return [...this.entries.values()].find((e) => e.enabled && e.discovery.state === 'error' && (e.label === part || e.manifest.id === part));
  }

  /** Every tool currently exposed: enabled sources, discovered, schema-compatible. */
  tools(): GovernedTool[] {
    return [...this.byName.values()];
  }

  sources(): SourceEntry[] {
    return [...this.entries.values()];
  }

  get(id: string): SourceEntry | undefined {
    return this.entries.get(id);
  }

  setEnabled(id: string, enabled: boolean): void {
    this.require(id).enabled = enabled;
    this.reindex();
  }

  /** Subscribes to catalog changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...[...this.entries.values()].map((e) => e.client), ...this.retiring].map((client) => client.close()));
  }

  private require(id: string): SourceEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`unknown source "${id}"`);
    return entry;
  }

  private reindex(): void {
    const before = this.signature();
    this.byName.clear();
    for (const entry of this.entries.values()) {
      if (!entry.enabled) continue;
      for (const tool of entry.tools) this.byName.set(tool.name, tool);
    }
    if (this.signature() !== before) for (const listener of this.listeners) listener();
  }

  /** What agents see of each tool: a rediscovered definition change is a catalog change too. */
  private signature(): string {
    return JSON.stringify([...this.byName.values()].map((t) => [t.name, t.title, t.description, t.inputSchema, t.upstream ?? null]));
  }
}
