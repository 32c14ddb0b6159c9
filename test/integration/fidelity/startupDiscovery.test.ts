import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { randomId, sharedSchemaValidator } from '../../../gateway/core/index.js';
import { createDownstreamServer } from '../../../gateway/listener/index.js';
import { createBrokerHarness } from '../../fixtures/brokerHarness.js';
import { testSession } from '../../fixtures/brokerDoubles.js';
import { flakyMcpSource } from '../../fixtures/servers/flakySource.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the first tools/list waits for the custom servers found at start-up', () => {
  it('answers only once their discovery has finished, so a client that lists once sees their tools', async () => {
    const h = await createBrokerHarness([flakyMcpSource([], { calls: 0, cancelled: 0 })]);
    // The source stands for a custom server still being discovered: its tools appear when discovery ends.
    h.registry.setEnabled('flaky', false);
    let discovered!: () => void;
    const startupDiscovery = new Promise<void>((resolve) => (discovered = resolve)).then(() => h.registry.setEnabled('flaky', true));
    const server = createDownstreamServer({ ...h.deps, broker: h.broker, newId: randomId, version: 'test', startupDiscovery: () => startupDiscovery }, testSession.id);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'lists-once', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(clientSide);
    cleanups.push(async () => (await client.close(), await h.close()));

    let answered = false;
    const listing = client.listTools().then((result) => ((answered = true), result));
    // A ping is answered meanwhile: the session is live, only tools/list waits.
    await client.ping();
    await client.ping();
    expect(answered).toBe(false);
    discovered();
    expect((await listing).tools.map((t) => t.name)).toContain('mcp__flaky__get');
  });
});
