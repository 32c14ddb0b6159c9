import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../gateway/core/index.js';
import { sizeBoundedFetch } from '../../../gateway/upstream/index.js';

/** A fetch that answers `parts` as the body, one chunk each, without any socket. */
function answering(parts: string[], contentType: string): typeof fetch {
  return async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': contentType } });
  };
}

async function read(parts: string[], contentType: string, maxMessageBytes: number) {
  const violations: GatewayError[] = [];
  const bounded = sizeBoundedFetch(answering(parts, contentType), { id: 'unit', maxMessageBytes, onViolation: (e) => violations.push(e) });
  const text = await (await bounded('http://127.0.0.1/')).text().then((t) => t, (e: unknown) => e);
  return { text, violations };
}

describe('sizeBoundedFetch', () => {
  it.each(['\n\n', '\r\n\r\n', '\r\r'])('an event stream may carry any number of events within the bound (separator %j)', async (separator) => {
    const event = `data: ${'a'.repeat(80)}${separator}`;
    const { text, violations } = await read(Array.from({ length: 50 }, () => event), 'text/event-stream', 100);
    expect(violations).toEqual([]);
    expect(text).toBe(event.repeat(50));
  });

  it('one event over the bound is cut, even when it arrives with a separator in the same chunk', async () => {
    const { text, violations } = await read([`data: ok\n\n`, `data: ${'b'.repeat(200)}\n\ndata: next\n\n`], 'text/event-stream', 100);
    expect(text).toBeInstanceOf(GatewayError);
    expect((text as GatewayError).code).toBe('response_too_large');
    expect(violations).toHaveLength(1);
  });

  it('a JSON body is bounded as a whole, and passes unchanged within it', async () => {
    expect((await read(['{"a":', '1}'], 'application/json', 100)).text).toBe('{"a":1}');
    const over = await read(['x'.repeat(60), 'y'.repeat(60)], 'application/json', 100);
    expect((over.text as GatewayError).message).toMatch(/unit sent an HTTP body of more than 100 bytes \(120 so far\)/);
  });
});
