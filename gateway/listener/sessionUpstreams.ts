import { pathToFileURL } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ClientCapabilities, LoggingLevel, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/index.js';
import type { SourceRegistry } from '../registry/index.js';
import type { ClientRequests, UpstreamClient } from '../upstream/index.js';

/** RFC 5424 severities, least severe first (MCP logging levels). */
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Opens a Session's own connection to a custom server (CustomServers.sessionClient). */
export type SessionClientFactory = (sourceId: string, requests: ClientRequests) => UpstreamClient | undefined;

/**
 * The upstream connections of one Session. A custom server is reached over the shared connection,
 * unless the Session's client declared sampling, elicitation or roots: then the Session gets a
 * connection of its own, declaring just what its client declared, so a server's question reaches
 * the client whose call caused it and no other. Sampling is forwarded only when the client
 * declared it; an elicitation names the server it comes from; each forwarded request is logged
 * with the Session and the server. After `logging/setLevel` the Session also gets connections of
 * its own, and their log messages at or above its level, named `<server>/<logger>`.
 * Roots: a server that asked for roots (learned on the shared connection) is reached over the
 * Session's own connection, which answers with the client's roots when it declared them, else
 * with the Session's workspace directory — never another Session's.
 * A forwarded request goes on the stream of the Session's tools/call to that server (the MCP rule
 * for requests sent while handling a client request), so it reaches a client without a GET stream.
 */
export class SessionUpstreams {
  private readonly own = new Map<string, { shared: UpstreamClient; client: UpstreamClient }>();
  /** Set by the client's `logging/setLevel`: from then on the Session has its own connections, whose log messages it gets. */
  private logLevel: LoggingLevel | undefined;
  /** The Session's tools/calls in flight, by server, oldest first (their request ids). */
  private readonly calls = new Map<string, RequestId[]>();

  constructor(
    private readonly o: {
      server: Server; sessionId: string; registry: SourceRegistry; open: SessionClientFactory; log: Logger;
      /** The Session's workspace directory (absolute), given as its root to servers that ask; none without workspaces. */
      workspaceRoot?: () => string;
    },
  ) {}

  /** The Session's connection to `sourceId`, or undefined to use the shared one. */
  clientFor(sourceId: string): UpstreamClient | undefined {
    const entry = this.o.registry.get(sourceId);
    const declared = this.forwardable();
    if (!entry || entry.manifest.type !== 'custom') return undefined;
    const rootsFromWorkspace = this.o.workspaceRoot !== undefined && entry.client.asksForRoots;
    if (!declared && !this.logLevel && !rootsFromWorkspace) return undefined;
    const current = this.own.get(sourceId);
    // A saved server gets a new shared client; the Session's connection follows it (its running calls finish first).
    if (current?.shared === entry.client) return current.client;
    if (current) void current.client.retire().catch(() => {});
    const client = this.o.open(sourceId, this.requests(entry.manifest.displayName, sourceId, declared ?? {}));
    if (!client) return undefined;
    this.own.set(sourceId, { shared: entry.client, client });
    return client;
  }

  /**
   * The Session's connections as seen by its tools/call `requestId`: the server it calls, until
   * `end`, sends what it asks on that call's stream.
   */
  forCall(requestId: RequestId): { clientFor: (sourceId: string) => UpstreamClient | undefined; end: () => void } {
    let ended: (() => void) | undefined;
    return {
      clientFor: (sourceId) => {
        ended?.();
        ended = this.callStarted(sourceId, requestId);
        return this.clientFor(sourceId);
      },
      end: () => ended?.(),
    };
  }

  /** Marks the tools/call `requestId` as in flight on `sourceId`, until the returned function is called. */
  private callStarted(sourceId: string, requestId: RequestId): () => void {
    const ids = this.calls.get(sourceId) ?? [];
    ids.push(requestId);
    this.calls.set(sourceId, ids);
    return () => {
      const at = ids.indexOf(requestId);
      if (at >= 0) ids.splice(at, 1);
      if (ids.length === 0 && this.calls.get(sourceId) === ids) this.calls.delete(sourceId);
    };
  }

  /** The Session's `logging/setLevel`: kept for the connections it opens later, forwarded to the open ones. */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.logLevel = level;
    await Promise.all([...this.own.values()].map((c) => c.client.setLoggingLevel(level)));
  }

  async close(): Promise<void> {
    const clients = [...this.own.values()].map((c) => c.client);
    this.own.clear();
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  }

  /** What the Session's client declared that an upstream may ask for; undefined when nothing. */
  private forwardable(): ClientCapabilities | undefined {
    const declared = this.o.server.getClientCapabilities() ?? {};
    const capabilities: ClientCapabilities = {
      ...(declared.sampling ? { sampling: declared.sampling } : {}),
      ...(declared.elicitation ? { elicitation: declared.elicitation } : {}),
      ...(declared.roots ? { roots: {} } : {}),
    };
    return Object.keys(capabilities).length > 0 ? capabilities : undefined;
  }

  /**
   * The Session's connection declares what the shared one declares, so the server lists the same
   * tools; only what the Session's client declared is forwarded, the rest refused with the reason.
   */
  private requests(serverName: string, sourceId: string, declared: ClientCapabilities): ClientRequests {
    const { server, sessionId, log } = this.o;
    const audit = (kind: string) => log.info({ sessionId, sourceId, kind }, 'forwarded an upstream request to the agent');
    const workspaceRoot = this.o.workspaceRoot;
    const options = (signal: AbortSignal): RequestOptions => {
      // A server's request does not say which call it serves (stdio has no way to), so with several
      // calls in flight it goes with the oldest, the likeliest to be running: any open call's stream
      // brings it to the client, which answers on a POST of its own. Outside any call it is unrelated
      // and goes on the GET stream, as before.
      const related = this.calls.get(sourceId)?.[0];
      return { signal, ...(related !== undefined ? { relatedRequestId: related } : {}) };
    };
    return {
      capabilities: { sampling: declared.sampling ?? {}, elicitation: declared.elicitation ?? { form: {} }, roots: {} },
      ...(declared.sampling
        ? {
            sampling: async (params, signal) => {
              audit('sampling');
              return server.createMessage(params, options(signal));
            },
          }
        : {}),
      ...(declared.elicitation
        ? {
            elicitation: async (params, signal) => {
              audit('elicitation');
              const from = `[${serverName.slice(0, 80)} via scigate] `;
              return server.elicitInput({ ...params, message: from + params.message } as Parameters<Server['elicitInput']>[0], options(signal));
            },
          }
        : {}),
      ...(declared.roots || workspaceRoot
        ? {
            roots: async (signal: AbortSignal) => {
              audit('roots');
              if (declared.roots || !workspaceRoot) return server.listRoots(undefined, options(signal));
              return { roots: [{ uri: pathToFileURL(`${workspaceRoot()}/`).href, name: 'scigate session workspace' }] };
            },
          }
        : {}),
      logLevel: () => this.logLevel,
      onLog: (message) => {
        if (!this.logLevel || LEVELS.indexOf(message.level) < LEVELS.indexOf(this.logLevel)) return;
        const logger = `${serverName.slice(0, 80)}${message.logger ? `/${message.logger}` : ''}`;
        void server.notification({ method: 'notifications/message', params: { ...message, logger } }).catch(() => {});
      },
      refusal: (kind) => `the agent's MCP client did not declare ${kind}, so scigate cannot forward this ${kind} request from "${serverName.slice(0, 80)}".`,
    };
  }
}
