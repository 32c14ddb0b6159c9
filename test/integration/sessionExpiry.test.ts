import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FakeClock } from '../fixtures/brokerDoubles.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';
import { EVICTION_GRACE_MS } from '../../gateway/listener/liveSessions.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.dispose();
  gateway = undefined;
});

async function sessions(g: TestGateway): Promise<Array<{ id: string; clientName: string; endedAt: string | null }>> {
  const response = await fetch(`${g.url}/api/sessions`, { headers: { authorization: `Bearer ${g.token}` } });
  return ((await response.json()) as any).sessions;
}

/** The stored Session of a connected client, once the gateway has persisted it. */
function sessionOf(g: TestGateway, clientName: string) {
  return vi.waitFor(
    async () => {
      const found = (await sessions(g)).find((s) => s.clientName === clientName);
      if (!found) throw new Error(`no session for ${clientName} yet`);
      return found;
    },
    { timeout: 60_000, interval: 20 },
  );
}

/** A client that goes away without DELETE (its process died, its laptop closed): its streams just end. */
async function vanish(client: Client): Promise<void> {
  await client.close();
}

describe('MCP session lifecycle', () => {
  it('a session whose client vanished without DELETE is closed after the idle timeout and ended in the store', async () => {
    const clock = new FakeClock();
    gateway = await startTestGateway({}, undefined, { clock, sessionLimits: { idleTimeoutMs: 60_000, maxSessions: 10 } });
    const client = await gateway.connect({ name: 'vanishing' });
    const stored = await sessionOf(gateway, 'vanishing');
    await vanish(client);
    clock.advance(59_000);
    expect((await sessionOf(gateway, 'vanishing')).endedAt).toBeNull();
    await vi.waitFor(
      async () => {
        clock.advance(15_000);
        expect((await sessions(gateway!)).find((s) => s.id === stored.id)?.endedAt).not.toBeNull();
      },
      { timeout: 60_000, interval: 50 },
    );
  });

  it('a connected client with its stream open is never idle, however long it waits', async () => {
    const clock = new FakeClock();
    gateway = await startTestGateway({}, undefined, { clock, sessionLimits: { idleTimeoutMs: 60_000, maxSessions: 10 } });
    const client = await gateway.connect({ name: 'patient' });
    await sessionOf(gateway, 'patient');
    for (let i = 0; i < 10; i++) clock.advance(60_000);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await sessionOf(gateway, 'patient')).endedAt).toBeNull();
  });

  it('at the cap, a new session closes the longest-idle one; when every session is busy it is refused with a clear error', async () => {
    const clock = new FakeClock();
    gateway = await startTestGateway({}, undefined, { clock, sessionLimits: { idleTimeoutMs: 3_600_000, maxSessions: 2 } });
    const gone = await gateway.connect({ name: 'gone' });
    await sessionOf(gateway, 'gone');
    await vanish(gone);
    await gateway.connect({ name: 'busy' });
    await sessionOf(gateway, 'busy');
    // Idle for less than the grace, the vanished client's session is not evicted yet.
    await expect(gateway.connect({ name: 'too-soon' })).rejects.toThrow(/max-sessions/);
    clock.advance(EVICTION_GRACE_MS);
    // The vanished client's stream closes asynchronously; once it has, its session is the one evicted.
    await vi.waitFor(async () => {
      await gateway!.connect({ name: 'newcomer' });
    }, { timeout: 60_000, interval: 100 });
    await sessionOf(gateway, 'newcomer');
    expect((await sessionOf(gateway, 'gone')).endedAt).not.toBeNull();
    expect((await sessionOf(gateway, 'busy')).endedAt).toBeNull();
    await expect(gateway.connect({ name: 'one-too-many' })).rejects.toThrow(/max-sessions/);
  });
});
