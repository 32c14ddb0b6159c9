import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createRequestPacers, randomId, sharedSchemaValidator } from '../../../gateway/core/index.js';
import { SourceRegistry, lazySourceServer } from '../../../gateway/registry/index.js';
import type { Broker } from '../../../gateway/broker/index.js';
import { UpstreamClient } from '../../../gateway/upstream/index.js';
import { createDownstreamServer } from '../../../gateway/listener/index.js';
import { arxivSource } from '../../../sources/arxiv/index.js';
import type { LazySource } from '../../../sources/index.js';
import { FakeClock, testSession } from '../../fixtures/brokerDoubles.js';
import { testBrokerDeps } from '../../fixtures/testBrokerDeps.js';
import { silentLogger } from '../../../gateway/core/index.js';

/** A registry with arXiv whose code "loads" only when the test says so. */
function slowlyLoadingCatalog() {
  const clock = new FakeClock();
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => (release = resolve));
  const source: LazySource = { manifest: arxivSource.manifest, load: async () => (await loaded, arxivSource) };
  const deps = () => ({
    fetch: globalThis.fetch, userAgent: 'scigate-test', baseUrl: 'http://127.0.0.1:9', now: () => new Date(clock.now()),
    pacer: createRequestPacers(clock),
  });
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
  const target = { kind: 'memory' as const, createServer: () => lazySourceServer(source, deps, silentLogger) };
  registry.add(source.manifest, new UpstreamClient({ id: 'arxiv', target, log: silentLogger, clock }));
  return { registry, release };
}

describe('discovery in the background (start-up answers before the sources have loaded)', () => {
  it('settled() resolves only once the catalog-wide discovery has finished', async () => {
    const { registry, release } = slowlyLoadingCatalog();
    await registry.settled();
    const discovering = registry.discoverAll();
    let settled = false;
    const waiting = registry.settled().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await discovering;
    await waiting;
    expect(registry.tools().map((t) => t.name)).toContain('mcp__arxiv__search');
    await registry.close();
  });

  it('a client initializes at once; its tools/list waits for discovery instead of seeing an empty catalog', async () => {
    const { registry, release } = slowlyLoadingCatalog();
    void registry.discoverAll();
    const deps = await testBrokerDeps(registry);
    const server = createDownstreamServer({ ...deps, broker: { nativeTools: () => [] } as unknown as Broker, newId: randomId, version: '0' }, testSession.id);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' }, { jsonSchemaValidator: sharedSchemaValidator });
    await client.connect(clientSide);
    const listed = client.listTools();
    release();
    expect((await listed).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__arxiv__search']));
    await client.close();
    await registry.close();
  });
});
