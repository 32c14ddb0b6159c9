import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  CompleteResultSchema, GetPromptResultSchema, ListPromptsResultSchema, ListResourceTemplatesResultSchema, ListResourcesResultSchema, ReadResourceResultSchema,
  type CompleteRequest, type CompleteResult, type GetPromptRequest, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource,
  type ResourceTemplate, type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, type Logger } from '../core/index.js';
import type { SourceEntry } from '../registry/index.js';
import type { ServerNotice, UpstreamClient } from '../upstream/index.js';
import { sourceNameOf, type FeatureNaming } from './featureNames.js';
import { rewritePromptUris } from './promptUris.js';

/** Most pages of one list an upstream may send; a server that keeps paging past this is cut off. */
const MAX_PAGES = 100;

type Feature = 'resources' | 'prompts' | 'completions';

export interface UpstreamFeaturesOptions {
  server: Server;
  sessionId: string;
  naming: FeatureNaming;
  /** The sources this Session may use here (enabled, discovered, selected; on /mcp/sources/<id> that one). */
  sources: () => Promise<SourceEntry[]>;
  /** The Session's own connection to a source, when it has one (sessionUpstreams.ts). */
  ownClient: (sourceId: string) => UpstreamClient | undefined;
  log: Logger;
}

/**
 * One Session's view of its sources' resources, resource templates, prompts and completions: lists
 * merged and named by `naming`, each request forwarded to the source it names over the Session's
 * connection, subscriptions held per Session (the server hears one subscribe per URI) and the
 * servers' `updated` and `list_changed` notifications relayed. Reads, prompt gets, completions and
 * subscriptions are logged with the Session and the source (the audit of these requests).
 */
export class UpstreamFeatures {
  /** By the URI the client subscribed with: where the subscription is held upstream. */
  private readonly subscribed = new Map<string, { client: UpstreamClient; uri: string }>();
  private readonly listening = new Map<UpstreamClient, () => void>();

  constructor(private readonly o: UpstreamFeaturesOptions) {}

  async listResources(): Promise<Resource[]> {
    return this.gather('resources', async (entry) => {
      const pages = await this.pages(entry, 'resources/list', ListResourcesResultSchema, (r) => r.resources);
      return pages.map((r) => ({ ...r, uri: this.o.naming.resourceUri(entry, r.uri) }));
    });
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.gather('resources', async (entry) => {
      const pages = await this.pages(entry, 'resources/templates/list', ListResourceTemplatesResultSchema, (r) => r.resourceTemplates);
      return pages.map((t) => ({ ...t, uriTemplate: this.o.naming.resourceUri(entry, t.uriTemplate) }));
    });
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const { entry, original } = await this.locateResource(uri, 'resources');
    this.audit('resources/read', entry, original);
    const result = await this.clientOf(entry).request({ method: 'resources/read', params: { uri: original } }, ReadResourceResultSchema);
    return { ...result, contents: result.contents.map((c) => ({ ...c, uri: this.o.naming.resourceUri(entry, c.uri) })) };
  }

  async subscribe(uri: string): Promise<void> {
    if (this.subscribed.has(uri)) return;
    const { entry, original } = await this.locateResource(uri, 'resources');
    if (!entry.client.serverCapabilities?.resources?.subscribe) {
      throw new GatewayError('invalid_input', `${entry.manifest.displayName.slice(0, 80)} does not offer resource subscriptions; read the resource again instead.`);
    }
    this.audit('resources/subscribe', entry, original);
    const client = this.clientOf(entry);
    await client.subscribe(original);
    this.subscribed.set(uri, { client, uri: original });
  }

  async unsubscribe(uri: string): Promise<void> {
    const held = this.subscribed.get(uri);
    if (!held) return;
    this.subscribed.delete(uri);
    await held.client.unsubscribe(held.uri);
  }

  async listPrompts(): Promise<Prompt[]> {
    return this.gather('prompts', async (entry) => {
      const prompts = await this.pages(entry, 'prompts/list', ListPromptsResultSchema, (r) => r.prompts);
      const names = this.o.naming.promptNames(entry, prompts.map((p) => p.name));
      return prompts.map((p) => ({ ...p, name: names.get(p.name) ?? p.name }));
    });
  }

  async getPrompt(params: GetPromptRequest['params']): Promise<GetPromptResult> {
    const { entry, original } = await this.locatePrompt(params.name);
    this.audit('prompts/get', entry, original);
    const result = await this.clientOf(entry).request({ method: 'prompts/get', params: { ...params, name: original } }, GetPromptResultSchema);
    return { ...result, messages: rewritePromptUris(result.messages, (uri) => this.o.naming.resourceUri(entry, uri)) };
  }

  async complete(params: CompleteRequest['params']): Promise<CompleteResult> {
    const ref = params.ref;
    const { entry, original } = ref.type === 'ref/prompt' ? await this.locatePrompt(ref.name) : await this.locateResource(ref.uri, 'templates');
    if (!entry.client.serverCapabilities?.completions) return { completion: { values: [] } };
    this.audit('completion/complete', entry, original);
    const upstreamRef = ref.type === 'ref/prompt' ? { ...ref, name: original } : { ...ref, uri: original };
    return this.clientOf(entry).request({ method: 'completion/complete', params: { ...params, ref: upstreamRef } }, CompleteResultSchema);
  }

  /** Drops the Session's subscriptions (the server hears an unsubscribe for the last holder) and listeners. */
  async close(): Promise<void> {
    const held = [...this.subscribed.values()];
    this.subscribed.clear();
    for (const off of this.listening.values()) off();
    this.listening.clear();
    await Promise.all(held.map((h) => h.client.unsubscribe(h.uri).catch(() => {})));
  }

  /** The sources whose server declared `feature`. */
  private async serving(feature: Feature): Promise<SourceEntry[]> {
    return (await this.o.sources()).filter((e) => (e.client.serverCapabilities as ServerCapabilities | undefined)?.[feature] !== undefined);
  }

  /** One merged list; a source that fails to answer is left out (and logged) rather than failing the list. */
  private async gather<T>(feature: Feature, list: (entry: SourceEntry) => Promise<T[]>): Promise<T[]> {
    const lists = await Promise.all(
      (await this.serving(feature)).map((entry) =>
        list(entry).catch((error: unknown) => {
          this.o.log.warn({ sessionId: this.o.sessionId, sourceId: entry.manifest.id, err: (error as Error).message }, `could not list the ${feature} of a source`);
          return [];
        }),
      ),
    );
    return lists.flat();
  }

  private async pages<S extends AnySchema, T>(entry: SourceEntry, method: string, schema: S, items: (result: SchemaOutput<S>) => T[]): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.clientOf(entry).request({ method, params: cursor ? { cursor } : {} }, schema);
      all.push(...items(result));
      cursor = (result as { nextCursor?: string }).nextCursor;
      if (!cursor) return all;
    }
    throw new GatewayError('upstream_error', `${entry.manifest.id} kept paging ${method} past ${MAX_PAGES} pages`);
  }

  /**
   * The source and original URI (or template) a client names: a namespaced URI names its source;
   * an upstream's own URI is looked up among the sources serving resources (the only one, or the
   * one that lists it), so a client that knows the server's URIs can still use them.
   */
  private async locateResource(uri: string, kind: 'resources' | 'templates'): Promise<{ entry: SourceEntry; original: string }> {
    const serving = await this.serving('resources');
    const named = this.o.naming.parseUri(uri);
    if (named) {
      const entry = serving.find((e) => sourceNameOf(e) === named.sourceName);
      if (!entry) throw unknownSource(named.sourceName);
      return { entry, original: named.uri };
    }
    if (serving.length === 0) throw nothingServes('resources');
    if (serving.length === 1) return { entry: serving[0]!, original: uri };
    const listing = await Promise.all(
      serving.map(async (entry) => {
        const listed = kind === 'resources' ? await this.listOf(entry, 'resources/list') : await this.listOf(entry, 'resources/templates/list');
        return listed.includes(uri) ? [entry] : [];
      }),
    );
    const matches = listing.flat();
    if (matches.length === 1) return { entry: matches[0]!, original: uri };
    throw new GatewayError('not_found', `No single source offers the resource ${uri.slice(0, 200)}; use a scigate:// URI from resources/list.`);
  }

  private async listOf(entry: SourceEntry, method: 'resources/list' | 'resources/templates/list'): Promise<string[]> {
    if (method === 'resources/list') return (await this.pages(entry, method, ListResourcesResultSchema, (r) => r.resources)).map((r) => r.uri);
    return (await this.pages(entry, method, ListResourceTemplatesResultSchema, (r) => r.resourceTemplates)).map((t) => t.uriTemplate);
  }

  /** The source and upstream name of a prompt: by its agent-facing name, else by the server's own name when one source has it. */
  private async locatePrompt(name: string): Promise<{ entry: SourceEntry; original: string }> {
    const sourceName = this.o.naming.promptSource(name);
    const candidates = await this.serving('prompts');
    if (candidates.length === 0) throw nothingServes('prompts');
    const listed = await Promise.all(
      candidates.map(async (entry) => {
        const prompts = await this.pages(entry, 'prompts/list', ListPromptsResultSchema, (r) => r.prompts).catch(() => []);
        return { entry, names: this.o.naming.promptNames(entry, prompts.map((p) => p.name)) };
      }),
    );
    const byAgentName = listed.flatMap(({ entry, names }) =>
      sourceName !== undefined && sourceNameOf(entry) !== sourceName ? [] : [...names].filter(([, agent]) => agent === name).map(([original]) => ({ entry, original })),
    );
    if (byAgentName.length === 1) return byAgentName[0]!;
    const byOwnName = listed.flatMap(({ entry, names }) => (names.has(name) ? [{ entry, original: name }] : []));
    if (byOwnName.length === 1) return byOwnName[0]!;
    if (sourceName !== undefined && !candidates.some((e) => sourceNameOf(e) === sourceName)) throw unknownSource(sourceName);
    throw new GatewayError('not_found', `No single prompt named ${name.slice(0, 200)}; list the prompts and use a name from that list.`);
  }

  /** The Session's connection to the source (its own, or the shared one), whose notifications it hears. */
  private clientOf(entry: SourceEntry): UpstreamClient {
    const client = this.o.ownClient(entry.manifest.id) ?? entry.client;
    if (!this.listening.has(client)) this.listening.set(client, client.onNotice((notice) => this.relay(client, notice)));
    return client;
  }

  private relay(client: UpstreamClient, notice: ServerNotice): void {
    const { server } = this.o;
    const send = (work: () => Promise<void>) => void work().catch(() => {});
    if (notice.kind === 'resources_list_changed') return send(() => server.sendResourceListChanged());
    if (notice.kind === 'prompts_list_changed') return send(() => server.sendPromptListChanged());
    for (const [uri, held] of this.subscribed) {
      if (held.client === client && held.uri === notice.uri) send(() => server.sendResourceUpdated({ uri }));
    }
  }

  private audit(kind: string, entry: SourceEntry, what: string): void {
    this.o.log.info({ sessionId: this.o.sessionId, sourceId: entry.manifest.id, kind, target: what.slice(0, 200) }, 'relayed a request to a custom server');
  }
}

function nothingServes(what: string): GatewayError {
  return new GatewayError('not_found', `No enabled source serves ${what} to this Session (disabled, removed or not selected); list the ${what} again.`);
}

function unknownSource(name: string): GatewayError {
  return new GatewayError(
    'not_found',
    `No enabled source "${name.slice(0, 80)}" serves this Session: it was disabled, removed or is not selected. List the resources or prompts again.`,
  );
}
