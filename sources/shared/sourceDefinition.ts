import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SourceManifest } from '../../catalog/index.js';

/** What a built-in source server is given: nothing global, so tests point it at a loopback server. */
export interface SourceDeps {
  fetch: typeof globalThis.fetch;
  /** Provider base URL override (`SCIGATE_<SOURCE>_BASE_URL`); the provider's public URL otherwise. */
  baseUrl?: string;
  /** Sent as User-Agent; providers ask callers to identify themselves. */
  userAgent: string;
  /** Source-specific settings such as `NCBI_API_KEY` / `NCBI_EMAIL`. */
  settings?: Record<string, string | undefined>;
  /** Current time (for `retrievedAt`, Retry-After dates and request spacing): the gateway's clock. */
  now: () => Date;
  /**
   * The gateway's shared request spacing: `pacer(group, minTimeMs)` returns a wait that resolves,
   * on the gateway's clock, when the group's next request may go out (rejecting when its signal
   * aborts). Sources that spend one provider budget name the same group and share one spacing.
   */
  pacer: (group: string, minTimeMs: number) => (signal?: AbortSignal) => Promise<void>;
}

/** A built-in scientific source: its manifest and a factory for its MCP server. */
export interface BuiltinSource {
  manifest: SourceManifest;
  createServer(deps: SourceDeps): McpServer;
}

/**
 * A built-in source as the catalog lists it: the manifest at once, the server code (providers'
 * parsers, fast-xml-parser, …) imported only when the source is first started.
 */
export interface LazySource {
  manifest: SourceManifest;
  load(): Promise<BuiltinSource>;
}
