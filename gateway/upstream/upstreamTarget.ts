import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { GatewayError } from '../core/index.js';

/** An MCP server the SDK client can reach in-process (the built-in sources by default). */
export interface InProcessServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** How an http/sse upstream authenticates (OAuth): its fetch is wrapped, and a refusal explains a failure. */
export interface UpstreamAuth {
  wrapFetch(inner: FetchLike): FetchLike;
  /** The authentication refusal behind the last failed request, reported instead of the transport's HTTP error. */
  refusal(): GatewayError | undefined;
}

/** Where an upstream MCP server is and how to reach it. */
export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args: string[]; cwd?: string; env?: Record<string, string> }
  | { kind: 'http'; url: string; headers?: Record<string, string>; auth?: UpstreamAuth }
  | { kind: 'sse'; url: string; headers?: Record<string, string>; auth?: UpstreamAuth }
  | { kind: 'memory'; createServer: () => InProcessServer };
