import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CustomServers } from '../../gateway/custom/customServers.js';
import { silentLogger } from '../../gateway/core/index.js';
import { NodeStreamableTransport } from '../../gateway/listener/nodeStreamableTransport.js';
import { openStorage } from '../../storage/index.js';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startHeldMcpHttpServer, type HeldMcpHttpServer } from '../fixtures/servers/heldMcpHttpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

let upstream: HeldMcpHttpServer | undefined;
let dir: string | undefined;
/** The stop under test: a failed assertion still lets it finish before the data directory goes. */
let stopping: Promise<void> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await upstream?.close();
  await stopping?.catch(() => {});
  if (dir) await rm(dir, { recursive: true, force: true });
  upstream = dir = stopping = undefined;
});

/** What a client's initialize ended with. */
type Opened = { error: { code?: number; message: string } } | { client: unknown };

const initialize = (gateway: TestGateway, name: string): Promise<Opened> =>
  gateway.connect({ name }).then(
    (client) => ({ client }),
    (error: { code?: number; message: string }) => ({ error }),
  );

/** A gateway whose start-up discovery of a custom server stays pending until `release()`. */
async function gatewayWithHeldDiscovery(): Promise<{ gateway: TestGateway; release(): void }> {
  upstream = await startHeldMcpHttpServer();
  dir = await mkdtemp(join(tmpdir(), 'scigate-opening-stop-'));
  const first = await startTestGateway({}, dir);
  const created = await adminApi(first).post('/api/mcp/servers', { name: 'slow start', transport: 'http', url: upstream.url, enabled: true });
  expect(created.status, created.text).toBe(201);
  await first.dispose();
  const held = upstream.hold();
  const gateway = await startTestGateway({}, dir);
  await held.arrived;
  return { gateway, release: held.release };
}

describe('a session still opening when the gateway stops', () => {
  it('is answered "scigate is stopping" at once, closed once its server exists, and no Session stays open', async () => {
    const { gateway, release } = await gatewayWithHeldDiscovery();
    const waitingForDiscovery = vi.spyOn(CustomServers.prototype, 'startupDiscovered');
    const connected = vi.spyOn(NodeStreamableTransport.prototype, 'start');
    const closed = vi.spyOn(NodeStreamableTransport.prototype, 'close');

    // The initialize passed the cap and waits for its server, which waits for start-up discovery.
    const opening = initialize(gateway, 'caught-opening');
    await vi.waitFor(() => expect(waitingForDiscovery).toHaveBeenCalled(), { timeout: 30_000, interval: 10 });
    stopping = gateway.stop();

    const stopped = { code: 503, message: expect.stringContaining('scigate is stopping') };
    expect(await opening).toEqual({ error: expect.objectContaining(stopped) });
    // The stop is still waiting for that session's server: an initialize sent meanwhile is refused, not opened.
    expect(await initialize(gateway, 'after-stop')).toEqual({ error: expect.objectContaining(stopped) });

    // Discovery ends; the server built for the caught session is closed before the stop completes.
    release();
    await stopping;
    expect(connected.mock.contexts).toHaveLength(1);
    expect(closed.mock.contexts).toContain(connected.mock.contexts[0]);

    const storage = await openStorage({ dataDir: dir!, log: silentLogger });
    const sessions = await storage.sessions.list();
    await storage.close();
    expect(sessions.filter((s) => s.endedAt === null)).toEqual([]);
  });
});
