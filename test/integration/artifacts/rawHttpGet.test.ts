import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '../../../gateway/artifacts/rawHttpGet.mjs';
import type { ResponseHead } from '../../../gateway/artifacts/httpResponseReader.mjs';

const tls = { cert: readFileSync(new URL('../../fixtures/tls/localhost.crt', import.meta.url)), key: readFileSync(new URL('../../fixtures/tls/localhost.key', import.meta.url)) };
const body = randomBytes(3 * 1024 * 1024 + 17);
/** Far more than the client may hold in memory before the body is taken (8 MiB) plus the kernel's socket buffers. */
const big = randomBytes(32 * 1024 * 1024);
const seen: Array<Record<string, string | string[] | undefined>> = [];

/** /plain: Content-Length; /chunked: no length; /cut: drops the connection at 40 %; /big: 32 MiB. */
function handler(req: IncomingMessage, res: ServerResponse): void {
  seen.push(req.headers);
  if (req.url === '/big') {
    res.writeHead(200, { 'content-length': String(big.length) });
    return void res.end(big);
  }
  if (req.url === '/chunked') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (let at = 0; at < body.length; at += 100_000) res.write(body.subarray(at, at + 100_000));
    return void res.end();
  }
  res.writeHead(200, { 'content-length': String(body.length), 'content-type': 'application/octet-stream' });
  if (req.url === '/cut') return void res.write(body.subarray(0, body.length * 0.4), () => res.socket?.destroy());
  res.end(body);
}

let http: Server;
let https: Server;
const origin = (server: Server, scheme: string) => `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  http = createServer(handler);
  https = createHttpsServer(tls, handler);
  await Promise.all([http, https].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
});
afterAll(() => {
  http.closeAllConnections();
  https.closeAllConnections();
  http.close();
  https.close();
});

interface Fetched {
  head: ResponseHead;
  body: Buffer;
  outcome: string;
  message?: string;
}

/** GETs `url`, takes the body after `waitMs` (the head's decision time), collects it. */
function fetchRaw(url: string, options: { ca?: Buffer; waitMs?: number } = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const request = rawGet(url, { accept: '*/*', range: 'bytes=0-' }, {
      onHead: (head) => {
        setTimeout(() => {
          request.stream({
            onBody: (buffer, start, end) => parts.push(Buffer.from(buffer.subarray(start, end))),
            onEnd: (outcome, message) => resolve({ head, body: Buffer.concat(parts), outcome, ...(message ? { message } : {}) }),
          });
        }, options.waitMs ?? 0);
      },
      onFailed: (message) => reject(new Error(message)),
    }, options.ca ? { ca: options.ca } : {});
  });
}

describe('rawGet: the download worker’s HTTP client', () => {
  it('receives a Content-Length body byte for byte, sending the given headers, Host and Connection: close', async () => {
    const got = await fetchRaw(`${origin(http, 'http')}/plain`);
    expect(got.head.status).toBe(200);
    expect(got.head.headers['content-length']).toBe(String(body.length));
    expect(got.outcome).toBe('complete');
    expect(got.body.equals(body)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ accept: '*/*', range: 'bytes=0-', connection: 'close', host: `127.0.0.1:${(http.address() as AddressInfo).port}` });
  });

  it('reads no further while the head is being decided: a 32 MiB body taken 500 ms after its head arrives whole', async () => {
    // Were the socket read on, the body would pile up in memory past the 8 MiB the client holds and
    // the response would end as dropped.
    const got = await fetchRaw(`${origin(http, 'http')}/big`, { waitMs: 500 });
    expect(got.message).toBeUndefined();
    expect(got.outcome).toBe('complete');
    expect(got.body.equals(big)).toBe(true);
  });

  it('decodes a chunked body', async () => {
    const got = await fetchRaw(`${origin(http, 'http')}/chunked`);
    expect(got.head.headers['transfer-encoding']).toBe('chunked');
    expect(got.outcome).toBe('complete');
    expect(got.body.equals(body)).toBe(true);
  });

  it('reports a connection dropped mid-body as dropped, with the bytes that came', async () => {
    const got = await fetchRaw(`${origin(http, 'http')}/cut`);
    expect(got.outcome).toBe('dropped');
    expect(got.body.length).toBe(Math.floor(body.length * 0.4));
    expect(got.body.equals(body.subarray(0, got.body.length))).toBe(true);
  });

  it('speaks TLS with the certificate checked: trusted, it receives the body; untrusted, it fails before any head', async () => {
    const got = await fetchRaw(`${origin(https, 'https')}/plain`, { ca: tls.cert });
    expect(got.outcome).toBe('complete');
    expect(got.body.equals(body)).toBe(true);
    await expect(fetchRaw(`${origin(https, 'https')}/plain`)).rejects.toThrow(/self[- ]signed|certificate/i);
  });

  it('fails without a head when nothing listens, and refuses a header it cannot send', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `${origin(closed, 'http')}/`;
    closed.close();
    await expect(fetchRaw(url)).rejects.toThrow(/ECONNREFUSED/);
    expect(() => rawGet(url, { 'x-bad': 'a\r\nInjected: 1' }, { onHead: () => {}, onFailed: () => {} })).toThrow(/invalid request header/);
  });
});
