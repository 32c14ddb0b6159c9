import { GatewayError } from '../core/index.js';
import { sseEventEnd } from './sseEventEnd.js';

export interface SizeBoundedFetchOptions {
  /** How the error message names the server (its id, or a custom server's label). */
  id: string;
  /** Most bytes of one JSON body, or of one SSE event in an event stream. */
  maxMessageBytes: number;
  /** Told first of every violation, so the caller can fail the whole connection. */
  onViolation?: (error: GatewayError) => void;
}

/**
 * Bounds what an HTTP upstream may send while it streams: a JSON body over `maxMessageBytes` (by
 * Content-Length, or counted as it arrives) and any one SSE event over it are cut off with
 * `response_too_large`, and the rest is never read, so a 300 MB answer never sits in memory.
 */
export function sizeBoundedFetch(inner: typeof fetch, options: SizeBoundedFetchOptions): typeof fetch {
  const { maxMessageBytes } = options;
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const eventStream = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const tooLarge = (bytes: number, what: string) => {
      const error = new GatewayError(
        'response_too_large',
        `${options.id} sent ${what} of more than ${maxMessageBytes} bytes (${bytes} so far); the connection was cut off.`,
        { details: { limitBytes: maxMessageBytes } },
      );
      options.onViolation?.(error);
      return error;
    };
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (!eventStream && declared > maxMessageBytes) {
      await response.body.cancel().catch(() => {});
      throw tooLarge(declared, 'an HTTP body');
    }
    const count = eventStream ? sseEventCounter(maxMessageBytes) : (chunk: Uint8Array, total: number) => total + chunk.length;
    let bytes = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes = count(chunk, bytes);
          if (bytes > maxMessageBytes) controller.error(tooLarge(bytes, eventStream ? 'an SSE event' : 'an HTTP body'));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Counts the bytes of the SSE event in progress, from 0 again after each event's end (sseEventEnd).
 * Returns the count after `chunk`, or as soon as it passes `limitBytes` (so one chunk holding a
 * whole oversized event is caught too).
 */
function sseEventCounter(limitBytes: number): (chunk: Uint8Array, eventBytes: number) => number {
  const endsEvent = sseEventEnd();
  return (chunk, eventBytes) => {
    let count = eventBytes;
    for (const byte of chunk) {
      count += 1;
      if (count > limitBytes) return count;
      if (endsEvent(byte)) count = 0;
    }
    return count;
  };
}
