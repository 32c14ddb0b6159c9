import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { EmptyResultSchema, type CallToolResult, type LoggingLevel, type ServerCapabilities, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallsInFlight, GatewayError, leaveOnAbort, sharedSchemaValidator, type Clock, type Logger, type ProcessGroupRecord, type SecretScrubber } from '../core/index.js';
import { lostConnection, toUpstreamError } from './upstreamErrors.js';
import { isNotAnMcpEndpoint } from './notAnMcpEndpoint.js';
import { refuseDeepResult } from './deepResults.js';
import { outputSchemaRefusal, parseCallToolResult } from './callToolResult.js';
import { DirectToolCalls, ToolRules, protocolRequestIds, type DirectCallOptions } from './directToolCalls.js';
import { installClientRequests, installServerNotices, type ClientRequests, type ServerNotice } from './clientRequests.js';
import { ProcessGroupStdioTransport } from './processGroupStdioTransport.js';
import { messageBytesFor } from './messageBytes.js';
import { upstreamFetch } from './upstreamFetch.js';
import type { InProcessServer, UpstreamAuth, UpstreamTarget } from './upstreamTarget.js';

export interface UpstreamClientOptions {
  /** Server id, for logs (and error messages, unless `name` is given). */
  id: string;
  /** How error messages name the server, e.g. a custom server's display name with its id (default: `id`). */
  name?: string;
  /** Where the server is; a function is called at each connect (custom servers resolve `$NAME` values then). */
  target: UpstreamTarget | (() => UpstreamTarget);
  log: Logger;
  /** Scrubs a stdio server's stderr before it is logged, even a secret split across two chunks. */
  secrets?: SecretScrubber;
  clock: Clock;
  /** Longest wait for connect + initialize (default 30 s). */
  connectTimeoutMs?: number;
  /**
   * Most bytes of any one message the server sends (a stdio line, an HTTP body, an SSE event);
   * more fails the connection with `response_too_large`. Default `messageBytesFor(5_000_000)`.
   */
  maxMessageBytes?: number;
  /** After this many failures in a row (failed connects, lost connections) the client stops for good. */
  maxConsecutiveFailures?: number;
  /** Told once, with the last failure, when the client stops after `maxConsecutiveFailures`. */
  onGiveUp?: (error: GatewayError) => void;
  /**
   * After this many requests in a row time out with no answer in between, the connection is closed
   * and the next call connects again (a stdio server is restarted): a hung server does not stay
   * hung. Unset: timeouts never end a connection (built-in sources, whose timeouts are a slow provider's).
   */
  maxTimeoutsInARow?: number;
  /** Told each time the client connects again after its connection died or a connect failed (metrics). */
  onRestart?: () => void;
  /** The client capabilities declared upstream and how its requests (sampling, elicitation, roots) are answered. */
  clientRequests?: ClientRequests;
  /** A stdio server's process group is written down here while it runs (absent: in memory only). */
  processGroups?: ProcessGroupRecord;
}

/** A tool call's signal, timeout and progress (directToolCalls.ts). */
export type UpstreamCallOptions = DirectCallOptions;

/** Most tools any one server may list; a server that keeps paging past this is cut off. */
const MAX_TOOL_PAGES = 100;
/**
 * Most characters of tool definitions read from one server over all its pages. Each page is
 * bounded by the response limit, but a server paging a hundred times could otherwise hand the
 * gateway a gigabyte of descriptions and schemas, kept in memory and sent in every agent's
 * tools/list. Real servers list well under 1 MiB.
 */
const MAX_TOOL_DEFINITION_CHARS = 16 * 1024 * 1024;

/** One SDK client for one upstream MCP server (stdio, SSE, streamable HTTP, in-memory); connects lazily, reconnects with backoff. */
export class UpstreamClient {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private inProcess: InProcessServer | undefined;
  private deaths = 0;
  /** Aborted by close(): stops a connection attempt waiting out its backoff. */
  private readonly stopping = new AbortController();
  /** Requests of the current connection that timed out since its last answer. */
  private timeoutsInARow = 0;
  private closed = false;
  private readonly running = new CallsInFlight();
  /** Why the client stopped for good after too many failures in a row. */
  private gaveUp: GatewayError | undefined;
  /** The violation that ended a connection (oversized message), reported instead of "connection closed". */
  private readonly failures = new WeakMap<Client, GatewayError>();
  /** Each connection's tools/call channel, and what the server's tools declare that their results must meet. */
  private readonly directCalls = new WeakMap<Client, DirectToolCalls>();
  private readonly toolRules = new ToolRules(sharedSchemaValidator);
  /** The authentication of the target last connected to, whose refusals explain failed requests. */
  private auth: UpstreamAuth | undefined;
  private readonly noticeListeners = new Set<(notice: ServerNotice) => void>();
  /** Resource subscriptions by URI, counted: one upstream subscribe for every holder, renewed after a reconnect. */
  private readonly subscriptions = new Map<string, number>();
  private capabilities: ServerCapabilities | undefined;
  private rootsAsked = false;

  constructor(private readonly options: UpstreamClientOptions) {}

  /** The server as error messages name it. */
  private get named(): string {
    return this.options.name ?? this.options.id;
  }

  /** Connects and initializes now (otherwise the first call does); rejects with a GatewayError. */
  async open(signal?: AbortSignal): Promise<void> {
    await this.connected(signal);
  }

  /** Lists every tool, following `nextCursor` pagination. */
  async listTools(signal?: AbortSignal): Promise<Tool[]> {
    const client = await this.connected();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    let definitionChars = 0;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client
        .listTools(cursor ? { cursor } : {}, { ...(signal ? { signal } : {}), timeout: this.connectTimeoutMs })
        .catch((error: unknown) => Promise.reject(this.failed(client, error, signal)));
      definitionChars += JSON.stringify(refuseDeepResult(result, this.named, 'tools/list').tools).length;
      if (definitionChars > MAX_TOOL_DEFINITION_CHARS) {
        throw new GatewayError('upstream_error', `${this.named} listed more than ${MAX_TOOL_DEFINITION_CHARS / 2 ** 20} MiB of tool definitions (descriptions and schemas); scigate reads no more, so its tools stay hidden`);
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) {
        this.toolRules.learn(tools);
        this.answered();
        return tools;
      }
    }
    throw new GatewayError('upstream_error', `${this.named} kept paging tools/list past ${MAX_TOOL_PAGES} pages`);
  }

  /** Calls a tool; rejects with a GatewayError (`upstream_timeout`, `upstream_unavailable`, `cancelled`, …). */
  async callTool(name: string, args: Record<string, unknown>, options: UpstreamCallOptions): Promise<CallToolResult> {
    return this.running.track(async () => {
      const client = await this.connected(options.signal);
      try {
        // Written on the transport in front of the client's Protocol (directToolCalls.ts); the result's
        // shape is checked once, by parseCallToolResult.
        const result = await this.directCalls.get(client)!.call(name, args, options);
        this.answered();
        return parseCallToolResult(result, this.named);
      } catch (error) {
        throw outputSchemaRefusal(error, this.named, name) ?? this.timedOutOrFailed(client, error, options.signal);
      }
    });
  }

  /**
   * Any other request (resources, prompts, completion), answered as `schema` says; rejects with a
   * GatewayError like callTool. `timeoutMs` defaults to the connect timeout.
   */
  async request<T extends AnySchema>(
    request: { method: string; params?: Record<string, unknown> },
    schema: T,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<SchemaOutput<T>> {
    const client = await this.connected(options.signal);
    try {
      const result = await client.request(request as never, schema, {
        ...(options.signal ? { signal: options.signal } : {}),
        timeout: options.timeoutMs ?? this.connectTimeoutMs,
      });
      this.answered();
      return refuseDeepResult(result, this.named, request.method);
    } catch (error) {
      throw this.timedOutOrFailed(client, error, options.signal);
    }
  }

  /** What the server declared at its last `initialize` (undefined before the first connection). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.capabilities;
  }

  /** True once the server asked this client for its roots (it then gets per-Session connections). */
  get asksForRoots(): boolean {
    return this.rootsAsked;
  }

  /** Hears the server's resource and prompt notifications; returns the unsubscribe function. */
  onNotice(listener: (notice: ServerNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  /** `resources/subscribe`, once per URI however many Sessions hold it. */
  async subscribe(uri: string, signal?: AbortSignal): Promise<void> {
    const holders = this.subscriptions.get(uri) ?? 0;
    if (holders === 0) await this.request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema, signal ? { signal } : {});
    this.subscriptions.set(uri, (this.subscriptions.get(uri) ?? 0) + 1);
  }

  /** Drops one holder of `uri`; the last one sends `resources/unsubscribe`. */
  async unsubscribe(uri: string): Promise<void> {
    const holders = this.subscriptions.get(uri) ?? 0;
    if (holders > 1) return void this.subscriptions.set(uri, holders - 1);
    this.subscriptions.delete(uri);
    if (holders === 1 && this.client) await this.request({ method: 'resources/unsubscribe', params: { uri } }, EmptyResultSchema);
  }

  /** Asks a connected server that offers logging for `level` (the next connection asks by itself). */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (this.client) await this.askLogLevel(this.client, level);
  }

  private async askLogLevel(client: Client, level: LoggingLevel): Promise<void> {
    if (!client.getServerCapabilities()?.logging) return;
    await client.setLoggingLevel(level).catch((error: unknown) => this.options.log.warn({ upstream: this.options.id, err: (error as Error).message }, 'logging/setLevel failed'));
  }

  /** Why the client stopped for good, if it did (shown as the server's status). */
  get stoppedReason(): string | undefined {
    return this.gaveUp?.message;
  }

  /** The pid of a stdio server's process, when it runs. */
  get pid(): number | undefined {
    const transport = this.client?.transport;
    return transport instanceof ProcessGroupStdioTransport ? transport.pid : undefined;
  }

  /** Closes once its running tool calls have ended: replaced by an admin's edit, it lets them finish. */
  async retire(): Promise<void> {
    await this.running.settled();
    await this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort(new GatewayError('tool_unavailable', `${this.named} was removed or stopped; list the tools again.`));
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.close().catch(() => {});
    await this.inProcess?.close().catch(() => {});
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 30_000;
  }

  private async connected(signal?: AbortSignal): Promise<Client> {
    // Closed means removed from the catalog (or the gateway is stopping): a call that captured this
    // client before the removal finds its tool gone, as a fresh call would.
    if (this.closed) throw new GatewayError('tool_unavailable', `${this.named} was removed or stopped; list the tools again.`);
    if (this.gaveUp) throw this.gaveUp;
    if (this.client) return this.client;
    // One attempt for every call that needs the connection meanwhile: no one call's to cancel (one
    // that is cancelled stops waiting, the others wait on), and close() stops it.
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return leaveOnAbort(this.connecting, signal);
  }

  private async connect(): Promise<Client> {
    if (this.deaths > 1) await this.options.clock.sleep(Math.min(250 * 2 ** (this.deaths - 2), 30_000), this.stopping.signal);
    const requests = this.options.clientRequests;
    const client = new Client({ name: 'scigate', version: '0.1.0' }, { capabilities: requests?.capabilities ?? {}, jsonSchemaValidator: sharedSchemaValidator });
    if (requests) installClientRequests(client, requests, (kind) => (this.rootsAsked ||= kind === 'roots'));
    installServerNotices(client, (notice) => {
      for (const listener of this.noticeListeners) listener(notice);
    });
    client.onclose = () => {
      if (this.client === client) {
        this.client = undefined;
        this.options.log.warn({ upstream: this.options.id }, 'upstream connection closed; it reconnects on the next call');
        this.died(this.failures.get(client) ?? new GatewayError('upstream_unavailable', `${this.named} closed the connection`));
      }
    };
    let transport: Transport | undefined;
    try {
      const target = typeof this.options.target === 'function' ? this.options.target() : this.options.target;
      this.auth = target.kind === 'http' || target.kind === 'sse' ? target.auth : undefined;
      transport = this.createTransport(target, client);
      await client.connect(transport, { timeout: this.connectTimeoutMs });
      this.directCalls.set(client, new DirectToolCalls(transport, this.toolRules, protocolRequestIds(client)));
    } catch (error) {
      await transport?.close().catch(() => {});
      const failure = toUpstreamError(this.failures.get(client) ?? this.auth?.refusal() ?? error, this.named, undefined, 'connect');
      if (failure.code !== 'cancelled') this.died(failure);
      throw failure;
    }
    this.client = client;
    this.timeoutsInARow = 0;
    this.capabilities = client.getServerCapabilities();
    const level = requests?.logLevel?.();
    if (level) await this.askLogLevel(client, level);
    // A new connection has no subscriptions: the ones Sessions still hold are renewed.
    for (const uri of this.subscriptions.keys()) {
      void client.request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema).catch(() => {});
    }
    // `deaths` is reset only by a successful request, so here it counts failures since the last good one.
    if (this.deaths > 0) this.options.onRestart?.();
    return client;
  }

  /** Maps a failed request, preferring the violation that ended its connection over "connection closed" (removed while it ran: calling again cannot help). */
  private failed(client: Client, error: unknown, signal?: AbortSignal): GatewayError {
    if (this.closed && !signal?.aborted) return new GatewayError('tool_unavailable', `${this.named} was stopped while this call ran (removed, or the gateway is shutting down); list the tools again.`);
    return toUpstreamError(this.failures.get(client) ?? this.auth?.refusal() ?? error, this.named, signal);
  }

  /** A request was answered: the failures and timeouts in a row start again from zero. */
  private answered(): void {
    this.deaths = 0;
    this.timeoutsInARow = 0;
  }

  /**
   * `failed`, and past `maxTimeoutsInARow` timeouts of the current connection with no answer in
   * between, that connection is ended (its other waiting requests fail as upstream_unavailable) and
   * counted as one failure in a row, so a server that keeps hanging is eventually stopped for good.
   */
  private timedOutOrFailed(client: Client, error: unknown, signal?: AbortSignal): GatewayError {
    const failure = this.failed(client, error, signal);
    const limit = this.options.maxTimeoutsInARow;
    if (failure.code !== 'upstream_timeout' || client !== this.client || limit === undefined) return failure;
    if (++this.timeoutsInARow >= limit) {
      this.failConnection(client, new GatewayError(
        'upstream_unavailable',
        `${this.named} answered none of its last ${limit} requests in time; scigate closed the connection and connects again (restarting a stdio server) on the next call.`,
        { retryable: true },
      ));
    }
    return failure;
  }

  /** Ends a connection whose server broke a bound or dropped an answer; its pending requests fail with `error`. */
  private failConnection(client: Client, error: GatewayError): void {
    if (this.failures.has(client)) return;
    this.failures.set(client, error);
    this.options.log.warn({ upstream: this.options.id, err: error.message }, 'upstream connection failed; it is closed and reconnects on the next call');
    // Let go of it now: a call made while it closes connects again instead of using it.
    if (this.client === client) {
      this.client = undefined;
      this.died(error);
    }
    void client.close().catch(() => {});
  }

  /** Counts one failure in a row; past `maxConsecutiveFailures` the client stops for good. */
  private died(error: GatewayError): void {
    // A missing login, or a URL that reaches no MCP endpoint (a web page, a sign-in redirect), is no
    // sign of a broken server: asking again cannot help and giving up would disable it; the admin's fix is what it waits for.
    if (error.code === 'auth_required' || error.code === 'insufficient_scope' || isNotAnMcpEndpoint(error)) return;
    this.deaths += 1;
    const limit = this.options.maxConsecutiveFailures;
    if (limit === undefined || this.deaths < limit || this.gaveUp || this.closed) return;
    this.gaveUp = new GatewayError(
      'upstream_unavailable',
      `${this.named} was stopped after ${this.deaths} failures in a row; the last: ${error.message}`,
      { details: { failures: this.deaths } },
    );
    this.options.log.error({ upstream: this.options.id, failures: this.deaths, err: error.message }, 'upstream stopped after repeated failures');
    this.options.onGiveUp?.(this.gaveUp);
  }

  private createTransport(target: UpstreamTarget, client: Client): Transport {
    const maxMessageBytes = this.options.maxMessageBytes ?? messageBytesFor(5_000_000);
    // A POST's answer (streamable HTTP) or the event stream that carries every answer (SSE) broken
    // off mid-way: the requests waiting on it fail at once as upstream_unavailable.
    const onLost = (method: string, error: unknown) => {
      if (target.kind === 'sse' || method === 'POST') this.failConnection(client, lostConnection(this.named, error));
    };
    const transport = target.kind === 'sse' ? 'sse' : 'http';
    const onStreamRefused = (error: GatewayError) => void (this.failures.has(client) || this.failures.set(client, error));
    const requestInit = (headers?: Record<string, string>, auth?: UpstreamAuth) => ({
      fetch: upstreamFetch({
        named: this.named, transport, maxMessageBytes, onLost, onViolation: (error) => this.failConnection(client, error), onStreamRefused, ...(auth ? { auth } : {}),
      }),
      ...(headers ? { requestInit: { headers } } : {}),
    });
    switch (target.kind) {
      case 'stdio':
        return new ProcessGroupStdioTransport({
          ...target, id: this.named, maxLineBytes: maxMessageBytes, log: this.options.log, onFailure: (error) => this.failConnection(client, error),
          ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
          ...(this.options.processGroups ? { processGroups: this.options.processGroups } : {}),
        });
      case 'http':
        return new StreamableHTTPClientTransport(new URL(target.url), requestInit(target.headers, target.auth));
      case 'sse':
        return new SSEClientTransport(new URL(target.url), requestInit(target.headers, target.auth));
      case 'memory': {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void this.inProcess?.close().catch(() => {});
        this.inProcess = target.createServer();
        void this.inProcess.connect(serverSide);
        return clientSide;
      }
    }
  }
}
