import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { parseSourceManifest, type McpToolResult } from '../catalog/index.js';

/** The benchmark's local upstream, as the gateway sees it: no spacing, wide queue, cache only on `echo_cached`. */
export const benchManifest = parseSourceManifest({
  id: 'bench',
  displayName: 'Benchmark echo',
  description: 'A cheap local MCP tool for measuring gateway overhead.',
  version: '1.0.0',
  type: 'builtin',
  serverId: 'bench',
  tools: [
    { id: 'echo', title: 'Echo', description: 'Echoes its argument as one record.', idempotent: true, cacheTtlMs: 0 },
    { id: 'echo_cached', title: 'Echo (cached)', description: 'Echo with a cache TTL.', idempotent: true, cacheTtlMs: 600_000 },
  ],
  license: 'CC0-1.0',
  attribution: 'Benchmark',
  allowedDomains: ['example.org'],
  limits: { concurrency: 64, queueDepth: 256, queueTimeoutMs: 60_000, minTimeMs: 0, timeoutSeconds: 60 },
  cacheTtlMs: 0,
  retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
});

function echoResult(toolId: string, text: string): McpToolResult {
  return {
    records: [
      {
        id: `bench:${text}`,
        sourceId: 'bench',
        sourceRecordId: text,
        kind: 'dataset',
        title: `Echo ${text}`,
        url: `https://example.org/${encodeURIComponent(text)}`,
        identifiers: {},
        citation: { text: `Echo ${text}`, url: `https://example.org/${encodeURIComponent(text)}` },
      },
    ],
    warnings: [],
    attribution: 'Benchmark',
    license: 'CC0-1.0',
    retrievedAt: new Date().toISOString(),
    sourceId: 'bench',
    toolId,
    untrusted: true,
  };
}

/** The echo MCP server itself; every path of the benchmark reaches one of these. */
export function createEchoMcpServer(): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  for (const toolId of ['echo', 'echo_cached']) {
    server.registerTool(toolId, { description: 'Echo', inputSchema: { text: z.string().max(200) } }, async ({ text }) => {
      const result = echoResult(toolId, text);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as unknown as Record<string, unknown> };
    });
  }
  return server;
}

/** Starts the echo MCP server over stateless streamable HTTP on 127.0.0.1. */
export async function startEchoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const mcp = createEchoMcpServer();
    // The SDK's default response mode (SSE), as most MCP servers and scigate itself answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}
