import { describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GatewayError, silentLogger } from '../../../gateway/core/index.js';
import { UpstreamClient } from '../../../gateway/upstream/index.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

/** An upstream whose first `failures` connects fail, then an echo server. */
function flakyUpstream(failures: number, clock: FakeClock) {
  let connects = 0;
  const createServer = () => {
    connects += 1;
    if (connects <= failures) throw new Error(`connect ${connects} refused`);
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { description: 'echo' }, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
    return server;
  };
  return new UpstreamClient({ id: 'echo', target: { kind: 'memory', createServer }, log: silentLogger, clock });
}

/** Waits until the shared connect is in its backoff sleep. */
async function sleeping(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 100 && clock.pendingDurations().length === 0; i++) await new Promise((r) => setImmediate(r));
  expect(clock.pendingDurations()).toEqual([250]);
}

describe('a connection attempt shared by several calls (after failures, it first waits out a backoff)', () => {
  it('is not cancelled by one call that leaves: that call ends at once, the others get the connection', async () => {
    const clock = new FakeClock();
    const client = flakyUpstream(2, clock);
    for (let i = 0; i < 2; i++) await expect(client.callTool('echo', {}, { timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'upstream_unavailable' });

    const leaving = new AbortController();
    const first = client.callTool('echo', {}, { timeoutMs: 10_000, signal: leaving.signal });
    const second = client.callTool('echo', {}, { timeoutMs: 10_000 });
    await sleeping(clock);
    leaving.abort(new GatewayError('cancelled', 'The client cancelled the call.'));
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    clock.advance(250);
    expect((await second).content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  });

  it('is stopped by close(): the calls waiting on it hear the client was stopped, and close does not wait out the backoff', async () => {
    const clock = new FakeClock();
    const client = flakyUpstream(2, clock);
    for (let i = 0; i < 2; i++) await expect(client.callTool('echo', {}, { timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const waiting = client.callTool('echo', {}, { timeoutMs: 10_000 });
    await sleeping(clock);
    await client.close();
    await expect(waiting).rejects.toMatchObject({ code: 'tool_unavailable' });
  });
});
