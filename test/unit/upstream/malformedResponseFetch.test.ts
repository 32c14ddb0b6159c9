import { describe, expect, it } from 'vitest';
import { malformedResponseFetch } from '../../../gateway/upstream/malformedResponseFetch.js';

/** A fetch answering `chunks` (each enqueued on its own) with `contentType`. */
function answering(contentType: string, chunks: string[]): typeof fetch {
  return async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };
}

const read = async (fetcher: typeof fetch) => (await fetcher('http://upstream.test/mcp')).text();
const malformed = /^\{"jsonrpc":"2\.0","id":7,"error":\{"code":-32603,"message":"up answered with a malformed JSON-RPC response \(result: [^"]*\); its server must fix it\.","data":\{"scigate\/malformed":"[-0-9a-f]+"\}\}\}$/;

describe('malformedResponseFetch', () => {
  it('passes a stream of valid events byte for byte, wherever its chunks break, CRLF and comments included', async () => {
    const stream = ': keepalive\r\n\r\nid: 1\r\nretry: 500\r\nevent: message\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n';
    const chunks = [stream.slice(0, 13), stream.slice(13, 14), stream.slice(14, 40), stream.slice(40)];
    const text = await read(malformedResponseFetch(answering('text/event-stream', chunks), 'up'));
    expect(text).toBe(stream);
  });

  it('replaces the data of an event answering with a result that is not an object, keeping its other fields', async () => {
    const text = await read(malformedResponseFetch(answering('text/event-stream', ['id: 4\nevent: mess', 'age\ndata: {"jsonrpc":"2.0",\ndata: "id":7,"result":"ok"}\n\n']), 'up'));
    const [id, event, data, ...rest] = text.split('\n');
    expect([id, event, rest]).toEqual(['id: 4', 'event: message', ['', '']]);
    expect(data!.slice('data: '.length)).toMatch(malformed);
  });

  it('replaces a malformed answer in a JSON body or batch and leaves a valid body as it was', async () => {
    expect(await read(malformedResponseFetch(answering('application/json', ['{"jsonrpc":"2.0","id":7,"result":null}']), 'up'))).toMatch(malformed);
    const batch = JSON.parse(await read(malformedResponseFetch(answering('application/json', ['[{"jsonrpc":"2.0","id":6,"result":{}},{"jsonrpc":"2.0","id":7,"result":[]}]']), 'up')));
    expect(batch[0]).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
    expect(JSON.stringify(batch[1])).toMatch(malformed);
    const valid = '{ "jsonrpc": "2.0", "id": 7, "result": {} }';
    expect(await read(malformedResponseFetch(answering('application/json', [valid]), 'up'))).toBe(valid);
    expect(await read(malformedResponseFetch(answering('application/json', ['<html>']), 'up'))).toBe('<html>');
  });
});
