import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An MCP server the SDK client can reach in-process (the built-in sources by default). */
export interface InProcessServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** Where an upstream MCP server is and how to reach it. */
export type UpstreamTarget =
  | { kind: 'stdio'; command: string; args: string[]; cwd?: string; env?: Record<string, string> }
  | { kind: 'http'; url: string; headers?: Record<string, string> }
  | { kind: 'sse'; url: string; headers?: Record<string, string> }
  | { kind: 'memory'; createServer: () => InProcessServer };
