import { describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { lazySourceServer } from '../../../gateway/registry/index.js';
import { type Logger, sharedSchemaValidator, silentLogger } from '../../../gateway/core/index.js';
import type { BuiltinSource, LazySource, SourceDeps } from '../../../sources/index.js';
import { arxivManifest } from '../../../sources/arxiv/manifest.js';

const deps: SourceDeps = { fetch: globalThis.fetch, userAgent: 'scigate-test', now: () => new Date(), pacer: () => async () => {} };

/** A source whose "code" is a tiny server with one tool, and a load() the test resolves by hand. */
function deferredSource() {
  const created: SourceDeps[] = [];
  const loaded: BuiltinSource = {
    manifest: arxivManifest,
    createServer: (given) => {
      created.push(given);
      const server = new McpServer({ name: 'arxiv', version: '1.0.0' });
      server.registerTool('search', { description: 'search' }, async () => ({ content: [] }));
      return server;
    },
  };
  let finish!: (outcome: BuiltinSource | Error) => void;
  const load = vi.fn(
    () => new Promise<BuiltinSource>((resolve, reject) => (finish = (o) => (o instanceof Error ? reject(o) : resolve(o)))),
  );
  const source: LazySource = { manifest: arxivManifest, load };
  return { source, load, created, loaded, finish: (o: BuiltinSource | Error = loaded) => finish(o) };
}

async function connectThrough(server: ReturnType<typeof lazySourceServer>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  void server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, { jsonSchemaValidator: sharedSchemaValidator });
  return { client, connected: client.connect(clientSide) };
}

describe('lazySourceServer', () => {
  it("imports the source's code on first connect, not before, and serves its tools", async () => {
    const { source, load, created, finish } = deferredSource();
    const server = lazySourceServer(source, () => deps, silentLogger);
    expect(load).not.toHaveBeenCalled();
    const { client, connected } = await connectThrough(server);
    expect(load).toHaveBeenCalledTimes(1);
    finish();
    await connected;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search']);
    expect(created).toEqual([deps]);
    await client.close();
    await server.close();
  });

  it('a source whose code fails to load fails the connection and says why in the log', async () => {
    const { source, finish } = deferredSource();
    const warn = vi.fn();
    const log = { ...silentLogger, warn } as Logger;
    const { connected } = await connectThrough(lazySourceServer(source, () => deps, log));
    finish(new Error('Cannot find module ./arxivServer.js'));
    await expect(connected).rejects.toThrow();
    expect(warn).toHaveBeenCalledWith({ sourceId: 'arxiv', err: 'Cannot find module ./arxivServer.js' }, 'built-in source failed to start');
  });

  it('closed while its code loads: the server is never started', async () => {
    const { source, created, finish } = deferredSource();
    const server = lazySourceServer(source, () => deps, silentLogger);
    const { connected } = await connectThrough(server);
    await server.close();
    finish();
    await expect(connected).rejects.toThrow();
    expect(created).toEqual([]);
  });
});
