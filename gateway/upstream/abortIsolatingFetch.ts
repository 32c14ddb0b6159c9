import { setMaxListeners } from 'node:events';
import { withFields } from '../core/index.js';

/**
 * The SDK's HTTP client transports pass one connection-wide AbortSignal to every fetch, and undici
 * adds a listener to it per request that only goes away on abort or garbage collection: a busy
 * upstream accumulates thousands of them (a memory leak and MaxListenersExceededWarning). This
 * fetch gives each request its own signal, bridged from the shared one until the body is read.
 */
export function abortIsolatingFetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init = {}) => {
    const shared = init.signal;
    if (!shared) return inner(input, init);
    const own = new AbortController();
    const bridge = () => own.abort(shared.reason);
    // One bridge per request in flight, each removed when its request ends; many at once is normal.
    setMaxListeners(0, shared);
    if (shared.aborted) own.abort(shared.reason);
    else shared.addEventListener('abort', bridge, { once: true });
    const release = () => shared.removeEventListener('abort', bridge);
    try {
      const response = await inner(input, withFields(init, { signal: own.signal }));
      if (!response.body) {
        release();
        return response;
      }
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({ flush: release }),
      );
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      release();
      throw error;
    }
  };
}
