import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { GatewayError, UpstreamClient, messageBytesFor, silentLogger, systemClock, type UpstreamTarget } from '../../gateway/index.js';
import { isAlive, waitUntil } from '../fixtures/cliProcess.js';

const hostile = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));
const MAX_RESPONSE_BYTES = 5_000_000;
const clients: UpstreamClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(target: UpstreamTarget, extra: { maxConsecutiveFailures?: number } = {}): UpstreamClient {
  const client = new UpstreamClient({
    id: 'hostile', target, log: silentLogger, clock: systemClock, maxMessageBytes: messageBytesFor(MAX_RESPONSE_BYTES), ...extra,
  });
  clients.push(client);
  return client;
}

const stdio = (...flags: string[]): UpstreamTarget => ({ kind: 'stdio', command: process.execPath, args: [hostile, ...flags], cwd: process.cwd() });
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('every byte a stdio upstream sends is bounded', () => {
  it('a 12 MB tool result fails that call with response_too_large, stops the server, and the next call restarts it', async () => {
    const client = clientFor(stdio());
    const pid = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    const error = await client.callTool('sized', { bytes: 12_000_000 }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('response_too_large');
    expect((error as GatewayError).message).toMatch(/more than 11048576 bytes/);
    expect(await waitUntil(() => !isAlive(pid))).toBe(true);

    const again = Number(textOf(await client.callTool('pid', {}, { timeoutMs: 20_000 })));
    expect(again).not.toBe(pid);
    expect(textOf(await client.callTool('sized', { bytes: 6_000_000 }, { timeoutMs: 60_000 }))).toHaveLength(6_000_000);
  });

  it('a server that floods at start fails the connect with response_too_large, and stops for good after N failures in a row', async () => {
    const reasons: string[] = [];
    const client = new UpstreamClient({
      id: 'flood', target: stdio('--flood-at-start'), log: silentLogger, clock: systemClock,
      maxMessageBytes: messageBytesFor(MAX_RESPONSE_BYTES), maxConsecutiveFailures: 3, onGiveUp: (e) => reasons.push(e.message),
    });
    clients.push(client);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const error = await client.open().catch((e: unknown) => e);
      expect((error as GatewayError).code).toBe('response_too_large');
    }
    expect(reasons).toEqual([expect.stringMatching(/stopped after 3 failures in a row; the last: .*more than 11048576 bytes/)]);
    expect(client.stoppedReason).toBe(reasons[0]);
    const stopped = await client.listTools().catch((e: unknown) => e);
    expect((stopped as GatewayError).code).toBe('upstream_unavailable');
  });
});
