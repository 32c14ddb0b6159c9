/**
 * The benchmark's echo MCP server over stdio: the upstream that mcp-proxy and scigate's custom
 * server both run, so their rows differ only by what sits in front of it.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createEchoMcpServer } from './echoServer.js';

await createEchoMcpServer().connect(new StdioServerTransport());
