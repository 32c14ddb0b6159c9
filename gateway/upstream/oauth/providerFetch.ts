import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CustomUrlPolicy } from '../../../catalog/index.js';
import { GatewayError } from '../../core/index.js';
import { assertEndpoint } from './providerEndpoints.js';
import { noteAnswer, stepOf, type ProviderTrace } from './providerTrace.js';

/**
 * How long one request to the authorization server may take, reading its whole answer included
 * (the probe of the MCP server uses the same bound). A login or a refresh waits on it: without a
 * bound a provider that never answers holds the callback page and every tool call of the server
 * for Node's own limit (about 300 s).
 */
export const PROVIDER_TIMEOUT_MS = 15_000;

/**
 * The most of one answer from the authorization server that is read: metadata, registration and
 * token documents are a few KiB, and reading an unbounded one would let a provider exhaust the
 * gateway's memory.
 */
export const MAX_PROVIDER_DOCUMENT_BYTES = 4 * 1024 * 1024;

export interface ProviderFetchOptions {
  /** Per request, headers and body; default `PROVIDER_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** The gateway's custom-server URL policy, applied to every provider URL besides https-or-loopback. */
  urlPolicy?: CustomUrlPolicy;
  /** Where each request's step and answer are noted, for the message if the operation fails. */
  trace?: ProviderTrace;
}

/**
 * The fetch the SDK's client auth uses for discovery, registration and token requests: each
 * request gets `timeoutMs` for the whole exchange, and its answer is read here in full, so a
 * provider trickling bytes cannot hold the caller past the bound; the SDK then reads the copy.
 * A URL OAuth may not use (see `refusedEndpoint`) is refused before anything is sent; the SDK
 * follows redirects itself (within the origin), so each hop comes through here too.
 */
export function providerFetch(inner: FetchLike, options: ProviderFetchOptions = {}): FetchLike {
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  return async (url, init) => {
    const target = new URL(url);
    assertEndpoint('the OAuth URL', target, options.urlPolicy);
    const step = stepOf(target, init);
    if (options.trace) options.trace.last = { step, origin: target.origin, status: 0 };
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      const response = await inner(url, { ...init, signal });
      const body = await readAll(response, signal, target);
      if (options.trace) noteAnswer(options.trace, step, target, response.status, body);
      const nullBody = response.status === 204 || response.status === 304;
      return new Response(nullBody ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      if (deadline.aborted) {
        throw new GatewayError('upstream_timeout', `The authorization server at ${target.origin} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}; try again, or check the server.`, {
          retryable: true,
          cause: error,
        });
      }
      throw error;
    }
  };
}

async function readAll(response: Response, signal: AbortSignal, target: URL): Promise<Uint8Array> {
  const tooLarge = () => {
    const shown = `${target.origin}${target.pathname}`;
    return new GatewayError('response_too_large', `The authorization server's answer from ${shown} is larger than ${MAX_PROVIDER_DOCUMENT_BYTES / 1024 / 1024} MiB, the most the gateway reads; check the server.`);
  };
  if (Number(response.headers.get('content-length') ?? 0) > MAX_PROVIDER_DOCUMENT_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  // Cancels the read at the deadline even where the inner fetch does not tie its body to the signal.
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_PROVIDER_DOCUMENT_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return Buffer.concat(chunks);
}
