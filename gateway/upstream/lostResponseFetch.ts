/**
 * Tells `onLost` when a response body breaks off before its end for a reason other than the
 * caller's abort: the server died or the connection dropped while it was answering. The SDK's HTTP
 * transports report that as a transport error but leave the request it was answering pending
 * until its timeout; the caller can end the connection instead, so the request fails at once.
 * `method` is the request's (a POST carries tool calls; a GET is a standalone event stream).
 */
export function lostResponseFetch(inner: typeof fetch, onLost: (method: string, error: unknown) => void): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const method = (init?.method ?? 'GET').toUpperCase();
    // Set when the reader of this body (the SDK) lets it go: a read ending after that is not a loss.
    let released = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (!released && !init?.signal?.aborted) onLost(method, error);
          controller.error(error);
          return;
        }
        if (released) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => {
        released = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
