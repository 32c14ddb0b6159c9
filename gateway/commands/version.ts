/** The gateway's version: its MCP serverInfo and the built-in sources' User-Agent. */
export const VERSION = '0.1.0';
