import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A response whose body is a Node Readable: chunks arrive as Buffers straight from the socket. */
export interface HttpGetResponse {
  status: number;
  header(name: string): string | null;
  body: IncomingMessage;
}

/**
 * One GET without following redirects, the download's side effect (house style §4: passed in).
 * Downloads use node:http(s) rather than fetch: fetch's web-stream body costs a promise and a
 * callback per chunk and pressures the garbage collector, which halved the throughput of a
 * 200 MiB download (docs/benchmarks.md); a Readable is read with plain 'data' events.
 */
export type HttpGet = (url: URL, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<HttpGetResponse>;

/** node:https for https URLs, node:http for the loopback mirrors of tests and offline runs. */
export const nodeHttpGet: HttpGet = (url, init) =>
  new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method: 'GET', headers: init.headers, signal: init.signal }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
        body: res,
      });
    });
    // Kept for the request's whole life: a socket error after the response began must not go unhandled
    // (the body reports it to its reader; rejecting a settled promise does nothing).
    req.on('error', reject);
    req.end();
  });
