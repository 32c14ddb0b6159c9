import { describe, expect, it } from 'vitest';
import { HttpResponseReader, MAX_HEAD_BYTES, parseHead, type ResponseHead } from '../../../gateway/artifacts/httpResponseReader.mjs';

interface Read {
  head?: ResponseHead;
  body: Buffer;
  complete: boolean;
}

/** Feeds `bytes` to a reader in pieces of `piece` bytes, through one reused buffer as a socket read does. */
function read(bytes: Buffer, piece = bytes.length): { result: Read; reader: HttpResponseReader } {
  const result: Read = { body: Buffer.alloc(0), complete: false };
  const reader = new HttpResponseReader({
    onHead: (head: ResponseHead) => (result.head = head),
    onBody: (buffer: Buffer, start: number, end: number) => (result.body = Buffer.concat([result.body, buffer.subarray(start, end)])),
    onComplete: () => (result.complete = true),
  });
  const scratch = Buffer.alloc(piece);
  for (let at = 0; at < bytes.length; at += piece) {
    const n = bytes.copy(scratch, 0, at, Math.min(bytes.length, at + piece));
    reader.feed(scratch, 0, n);
    scratch.fill(0xee); // a view kept past its call would read this
  }
  return { result, reader };
}

const crlf = (...lines: string[]) => Buffer.from(lines.join('\r\n'), 'latin1');

describe('HttpResponseReader', () => {
  it('reads a Content-Length body byte for byte, at every split of the input', () => {
    const body = Buffer.from('hello, world: the whole body');
    const response = Buffer.concat([crlf('HTTP/1.1 200 OK', 'Content-Length: 28', 'Content-Type: text/plain', '', ''), body]);
    for (const piece of [1, 2, 7, 64, response.length]) {
      const { result } = read(response, piece);
      expect(result.head).toEqual({ status: 200, headers: { 'content-length': '28', 'content-type': 'text/plain' } });
      expect(result.body.equals(body)).toBe(true);
      expect(result.complete).toBe(true);
    }
  });

  it('decodes a chunked body with extensions and trailers, at every split of the input', () => {
    const response = crlf('HTTP/1.1 206 Partial Content', 'Transfer-Encoding: chunked', '', '5;name=x', 'hello', 'A', ', chunked!', '0', 'X-Trailer: t', '', '');
    for (const piece of [1, 3, 16, response.length]) {
      const { result } = read(response, piece);
      expect(result.head?.status).toBe(206);
      expect(result.body.toString()).toBe('hello, chunked!');
      expect(result.complete).toBe(true);
    }
  });

  it('reads a body without framing until the connection closes', () => {
    const { result, reader } = read(crlf('HTTP/1.0 200 OK', '', 'all of it'));
    expect(result.body.toString()).toBe('all of it');
    expect(result.complete).toBe(false);
    expect(reader.endOfStream()).toBe(true);
    expect(result.complete).toBe(true);
  });

  it('tells a Content-Length body cut short from a complete one', () => {
    const { result, reader } = read(crlf('HTTP/1.1 200 OK', 'Content-Length: 10', '', 'short'));
    expect(result.body.toString()).toBe('short');
    expect(reader.endOfStream()).toBe(false);
    expect(result.complete).toBe(false);
  });

  it('skips an interim 100 Continue and completes a 204 without a body', () => {
    const { result } = read(crlf('HTTP/1.1 100 Continue', '', 'HTTP/1.1 204 No Content', 'Content-Length: 0', '', ''));
    expect(result.head?.status).toBe(204);
    expect(result.complete).toBe(true);
  });

  it('joins repeated headers as node:http does, keeping the first of a single-valued one', () => {
    const { headers } = parseHead(['HTTP/1.1 302 Found', 'Location: https://a.example/1', 'Location: https://b.example/2', 'Set-Cookie: a=1', 'Set-Cookie: b=2', 'Vary: accept', 'Vary: range'].join('\r\n'));
    expect(headers).toEqual({ location: 'https://a.example/1', 'set-cookie': ['a=1', 'b=2'], vary: 'accept, range' });
  });

  it.each([
    ['a status line that is not HTTP/1.x', crlf('HTTP/2 200', '', ''), /status line/],
    ['a folded header line', crlf('HTTP/1.1 200 OK', 'X-A: 1', ' folded', '', ''), /malformed header/],
    ['a header line without a colon', crlf('HTTP/1.1 200 OK', 'nonsense', '', ''), /malformed header/],
    ['two different Content-Lengths', crlf('HTTP/1.1 200 OK', 'Content-Length: 5', 'Content-Length: 6', '', ''), /two different content-length/],
    ['a negative Content-Length', crlf('HTTP/1.1 200 OK', 'Content-Length: -1', '', ''), /invalid content-length/],
    ['a transfer coding other than chunked', crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: gzip, chunked', '', ''), /unsupported transfer-encoding/],
    ['a chunk size that is not hex', crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', 'zz', ''), /invalid chunk size/],
    ['chunk data longer than its size', crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', '2', 'abc', ''), /longer than its size/],
    ['a switch of protocols', crlf('HTTP/1.1 101 Switching Protocols', '', ''), /switched protocols/],
  ])('refuses %s', (_name, response, message) => {
    expect(() => read(response)).toThrow(message);
  });

  it('refuses a head that never ends, without holding more than its limit', () => {
    const endless = Buffer.concat([crlf('HTTP/1.1 200 OK', ''), Buffer.alloc(MAX_HEAD_BYTES * 2, 'a')]);
    expect(() => read(endless, 4096)).toThrow(/head is over/);
  });
});
