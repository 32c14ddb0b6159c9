import { describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { silentLogger, systemClock } from '../../../gateway/core/index.js';
import { UpstreamClient } from '../../../gateway/upstream/index.js';

/** An in-process server per connect; the test keeps each one to end its connection. */
function servers() {
  const made: McpServer[] = [];
  const createServer = () => {
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { description: 'echo' }, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
    made.push(server);
    return server;
  };
  return { made, createServer };
}

describe('UpstreamClient onRestart', () => {
  it('is told when the client connects again after its connection died, not on the first connect', async () => {
    const { made, createServer } = servers();
    let restarts = 0;
    const client = new UpstreamClient({
      id: 'echo', target: { kind: 'memory', createServer }, log: silentLogger, clock: systemClock, onRestart: () => (restarts += 1),
    });
    await client.callTool('echo', {}, { timeoutMs: 10_000 });
    expect(restarts).toBe(0);
    await made[0]!.close();
    const result = await client.callTool('echo', {}, { timeoutMs: 10_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(made).toHaveLength(2);
    expect(restarts).toBe(1);
    await client.close();
  });
});
