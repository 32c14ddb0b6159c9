import { malformedResponse } from './malformedResponses.js';
import { sseEventEnd } from './sseEventEnd.js';

/**
 * malformedResponse for the HTTP transports, whose parsing is the SDK's: in a JSON body, or in an
 * SSE event, an answer the schema would refuse is replaced by the error response for its id before
 * the transport reads it. Otherwise the SDK drops such an event (its request waits for its timeout)
 * or fails the POST with a zod dump, as a server that "could not be reached". Everything else passes
 * as it came.
 */
export function malformedResponseFetch(inner: typeof fetch, upstreamId: string): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || !response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    if (/^\s*text\/event-stream/i.test(type)) {
      return withBody(response, response.body.pipeThrough(repairedEvents(upstreamId)));
    }
    if (!/^\s*application\/json/i.test(type)) return response;
    const text = await response.text();
    return withBody(response, repairedJson(text, upstreamId) ?? text);
  };
}

function withBody(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The body with each malformed answer replaced (a batch is an array), or undefined when none was. */
function repairedJson(text: string, upstreamId: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // the transport reports it as before
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  let changed = false;
  const repaired = messages.map((message: unknown) => {
    const replacement = malformedResponse(message, upstreamId);
    changed ||= replacement !== undefined;
    return replacement ?? message;
  });
  if (!changed) return undefined;
  return JSON.stringify(Array.isArray(parsed) ? repaired : repaired[0]);
}

/**
 * Cuts an event stream into events (sseEventEnd, as sizeBoundedFetch counts them) and passes each
 * on when it is complete, which is when the SDK's parser would dispatch it anyway: its bytes as they
 * came, or, when its data is a malformed answer, the event rewritten with the error response. An
 * event is already bounded in size (sizeBoundedFetch, inside this one).
 */
function repairedEvents(upstreamId: string): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  const endsEvent = sseEventEnd();
  const finish = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const event = held;
    held = [];
    const decoder = new TextDecoder();
    const replacement = replacedEvent(event.map((part) => decoder.decode(part, { stream: true })).join('') + decoder.decode(), upstreamId);
    if (replacement === undefined) for (const part of event) controller.enqueue(part);
    else controller.enqueue(new TextEncoder().encode(replacement));
  };
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        if (!endsEvent(chunk[i]!)) continue;
        held.push(chunk.subarray(start, i + 1));
        start = i + 1;
        finish(controller);
      }
      if (start < chunk.length) held.push(chunk.subarray(start));
    },
    flush(controller) {
      // An event the stream broke off goes on unfinished, as it came.
      for (const part of held) controller.enqueue(part);
    },
  });
}

/** The event with its data replaced by the error response, when that data is a malformed answer. */
function replacedEvent(event: string, upstreamId: string): string | undefined {
  const lines = event.split(/\r\n|\r|\n/).filter((line) => line !== '');
  const isData = (line: string) => line.startsWith('data:');
  const data = lines.filter(isData).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  if (data.length === 0) return undefined;
  const replacement = malformedResponse(parseOrUndefined(data.join('\n')), upstreamId);
  if (replacement === undefined) return undefined;
  return `${[...lines.filter((line) => !isData(line)), `data: ${JSON.stringify(replacement)}`].join('\n')}\n\n`;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
