import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../sources/shared/providerError.js';
import { providerFetch } from '../../sources/shared/providerFetch.js';
import type { SourceDeps } from '../../sources/shared/sourceDefinition.js';
import { fixtureBytes } from '../fixtures/providers/replayServer.js';

/** What a source reads at most from one answer (providerFetch's limit). */
const LIMIT_BYTES = 20_000_000;
/** How much the streaming provider would send if nobody stopped reading. */
const STREAM_BYTES = 120_000_000;

const deps: SourceDeps = {
  fetch: globalThis.fetch,
  userAgent: 'scigate-test',
  now: () => new Date(),
  pacer: () => async () => {},
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** One real Europe PMC core result, repeated: a search answer that never stops growing. */
function endlessResults(): { head: Buffer; item: Buffer } {
  const page = JSON.parse(fixtureBytes('europepmc', 'search-core-with-fulltexturls.json').toString('utf8'));
  return { head: Buffer.from('{"version":"6.9","hitCount":1,"resultList":{"result":['), item: Buffer.from(`${JSON.stringify(page.resultList.result[0])},`) };
}

/** Streams chunked (no Content-Length) with backpressure; `written()` is what went out before the reader hung up. */
async function startStreamingProvider(): Promise<{ url: string; written: () => number }> {
  const { head, item } = endlessResults();
  let written = 0;
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
    const pump = () => {
      while (!res.destroyed && written < STREAM_BYTES) {
        const chunk = written === 0 ? head : item;
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']}}');
    };
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/search`, written: () => written };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('a provider body past the limit', () => {
  it('a chunked stream is refused once the limit is read, and reading stops there', async () => {
    const provider = await startStreamingProvider();
    const error = await failureOf(providerFetch(deps, provider.url, { provider: 'Europe PMC' }));
    // Socket buffers hold a few megabytes more than what was read; nowhere near the whole stream.
    expect(provider.written()).toBeLessThan(LIMIT_BYTES * 2);
    expect(error).toMatchObject({ code: 'upstream_error', retryable: false });
    expect(error.message).toContain(`more than ${LIMIT_BYTES} bytes`);
    expect(error.message).toMatch(/ask for fewer or smaller records/);
  });

  it('a gzip body that inflates past the limit is refused, though its Content-Length is small', async () => {
    const { head, item } = endlessResults();
    const inflated = Buffer.concat([head, ...Array.from({ length: Math.ceil((LIMIT_BYTES * 1.5) / item.length) }, () => item)]);
    const body = gzipSync(inflated);
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
    expect(body.length).toBeLessThan(LIMIT_BYTES);
    const error = await failureOf(providerFetch(deps, url, { provider: 'Europe PMC' }));
    expect(error).toMatchObject({ code: 'upstream_error', retryable: false });
    expect(error.message).toContain(`more than ${LIMIT_BYTES} bytes`);
  });

  it('a body within the limit is read whole', async () => {
    const provider = fixtureBytes('europepmc', 'search-core-with-fulltexturls.json');
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(provider.subarray(0, 1000));
      res.end(provider.subarray(1000));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
    const response = await providerFetch(deps, url, { provider: 'Europe PMC' });
    expect(Buffer.from(response.body, 'utf8').equals(provider)).toBe(true);
  });
});
