import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CustomServers } from '../../gateway/custom/customServers.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startHeldMcpHttpServer, type HeldMcpHttpServer } from '../fixtures/servers/heldMcpHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let gateway: TestGateway | undefined;
let upstream: HeldMcpHttpServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await gateway?.dispose();
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  gateway = upstream = dir = undefined;
});

const CAP = 2;
const CLIENTS = 5;

describe('the session cap while sessions are still opening', () => {
  it('counts an opening session at once: of five initializes sent together while discovery is slow, two open and three are refused', async () => {
    // A custom server saved by one gateway is discovered at the next one's start-up; held, that
    // discovery keeps every new session waiting for its capabilities, so the initializes overlap.
    upstream = await startHeldMcpHttpServer();
    dir = await mkdtemp(join(tmpdir(), 'scigate-cap-'));
    const first = await startTestGateway({}, dir);
    const created = await adminApi(first).post('/api/mcp/servers', { name: 'slow start', transport: 'http', url: upstream.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    await first.dispose();
    const held = upstream.hold();
    gateway = await startTestGateway({}, dir, { sessionLimits: { idleTimeoutMs: 3_600_000, maxSessions: CAP } });
    await held.arrived;

    // An initialize that passed the cap check waits for start-up discovery; one beyond the cap is answered at once.
    const waitingForDiscovery = vi.spyOn(CustomServers.prototype, 'startupDiscovered');
    let refused = 0;
    const opening = Array.from({ length: CLIENTS }, (_, i) =>
      gateway!.connect({ name: `agent-${i}` }).then(
        (client) => ({ client }),
        (error: { code?: number; message: string }) => ((refused += 1), { error }),
      ),
    );
    await vi.waitFor(() => expect(waitingForDiscovery.mock.calls.length + refused).toBe(CLIENTS), { timeout: 30_000, interval: 10 });
    held.release();

    const outcomes = await Promise.all(opening);
    const rejections = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
    expect(rejections.map((e) => [e.code, e.message])).toEqual(
      Array(CLIENTS - CAP).fill([503, expect.stringContaining('Too many open MCP sessions, all busy; retry later, or raise --max-sessions')]),
    );
    const opened = outcomes.flatMap((o) => ('client' in o ? [o.client] : []));
    expect(opened).toHaveLength(CAP);
    for (const client of opened) await client.ping();

    // A session that joined holds one place, not two: once one ends, a newcomer fits.
    await (opened[0]!.transport as StreamableHTTPClientTransport).terminateSession();
    await expect(gateway.connect({ name: 'newcomer' })).resolves.toBeDefined();
    await expect(gateway.connect({ name: 'one-too-many' })).rejects.toThrow(/max-sessions/);
  });
});
