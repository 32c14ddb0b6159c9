// An HTTP/1.1 response reader for the download worker: it is fed the bytes of one connection as they
// arrive and calls back with the head, then with body bytes as views of the buffer it was fed (no copy),
// then once at the end. It exists because node:http reads every 64 KiB into a new buffer and runs a
// stream event per read; reading the socket into one reused buffer (net/tls `onread`) and taking the
// body straight from it halves the CPU of receiving a large file (docs/benchmarks.md, "Download").
// Strict on purpose: what a well-behaved server never sends (folded or malformed header lines, two
// different Content-Lengths, an unknown transfer coding, a head over 64 KiB) ends the response with
// an error instead of a guess. Plain JavaScript: worker files run without a TypeScript loader.

/** A response head longer than this is refused (node:http's own limit is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line (size and extensions) longer than this is refused. */
const MAX_CHUNK_LINE_BYTES = 4096;
/** Headers that may appear once: node:http keeps the first, and so does this reader. */
const SINGLE = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/;
const CRLF_CRLF = Buffer.from('\r\n\r\n');

export class HttpResponseError extends Error {}

/**
 * Reads one response. `onHead({ status, headers })` once (headers as node:http's IncomingHttpHeaders:
 * lower-case names, set-cookie an array, repeats joined with ', '); `onBody(buffer, start, end)` for
 * each run of body bytes, valid only during the call; `onComplete()` when the body ended as framed.
 * `feed` throws HttpResponseError for a response it refuses; `endOfStream()` says whether the body was
 * complete when the connection closed.
 */
export class HttpResponseReader {
  constructor({ onHead, onBody, onComplete }) {
    this.onHead = onHead;
    this.onBody = onBody;
    this.onComplete = onComplete;
    this.head = Buffer.alloc(0);
    this.state = 'head';
  }

  /** Takes the bytes `buffer[start, end)`. */
  feed(buffer, start, end) {
    while (start < end && this.state !== 'done') {
      if (this.state === 'head') start = this.readHead(buffer, start, end);
      else if (this.state === 'length') start = this.readLength(buffer, start, end);
      else if (this.state === 'close') {
        this.onBody(buffer, start, end);
        start = end;
      } else start = this.readChunked(buffer, start, end);
    }
  }

  /** The connection ended: true when the body was complete (or runs until the close). */
  endOfStream() {
    if (this.state === 'close') this.finish();
    return this.state === 'done';
  }

  readHead(buffer, start, end) {
    const before = this.head.length;
    this.head = Buffer.concat([this.head, buffer.subarray(start, Math.min(end, start + MAX_HEAD_BYTES + 4 - before))]);
    const at = this.head.indexOf(CRLF_CRLF);
    if (at < 0) {
      if (this.head.length > MAX_HEAD_BYTES) throw new HttpResponseError(`the response head is over ${MAX_HEAD_BYTES} bytes`);
      return end;
    }
    const consumed = start + (at + 4 - before);
    const { status, headers } = parseHead(this.head.subarray(0, at).toString('latin1'));
    this.head = Buffer.alloc(0);
    // An interim response (100 Continue, 103 Early Hints) is followed by the real one.
    if (status >= 100 && status < 200) {
      if (status === 101) throw new HttpResponseError('the server switched protocols');
      return consumed;
    }
    this.frame(status, headers);
    this.onHead({ status, headers });
    if (this.state === 'done') this.onComplete();
    return consumed;
  }

  frame(status, headers) {
    if (status === 204 || status === 304) return void (this.state = 'done');
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      if (coding.trim().toLowerCase() !== 'chunked') throw new HttpResponseError(`unsupported transfer-encoding "${coding}"`);
      this.state = 'size';
      this.line = '';
      return;
    }
    const length = headers['content-length'];
    if (length === undefined) return void (this.state = 'close');
    if (!/^\d{1,15}$/.test(length)) throw new HttpResponseError(`invalid content-length "${length}"`);
    this.remaining = Number(length);
    this.state = this.remaining === 0 ? 'done' : 'length';
  }

  readLength(buffer, start, end) {
    const take = Math.min(end - start, this.remaining);
    this.onBody(buffer, start, start + take);
    this.remaining -= take;
    if (this.remaining === 0) this.finish();
    // Bytes after the body are not this response's: ignored (the connection is closed after it).
    return end;
  }

  readChunked(buffer, start, end) {
    if (this.state === 'data') {
      const take = Math.min(end - start, this.remaining);
      this.onBody(buffer, start, start + take);
      this.remaining -= take;
      if (this.remaining === 0) {
        this.state = 'data-end';
        this.line = '';
      }
      return start + take;
    }
    // The other states read lines: a chunk size, the CRLF after a chunk's data, trailer lines.
    const newline = buffer.indexOf(10, start);
    const stop = newline < 0 || newline >= end ? end : newline + 1;
    this.line += buffer.toString('latin1', start, stop);
    if (this.line.length > MAX_CHUNK_LINE_BYTES) throw new HttpResponseError('a chunk-size or trailer line is too long');
    if (!this.line.endsWith('\n')) return stop;
    if (!this.line.endsWith('\r\n')) throw new HttpResponseError('a chunked body line does not end with CRLF');
    const line = this.line.slice(0, -2);
    this.line = '';
    if (this.state === 'data-end') {
      if (line !== '') throw new HttpResponseError('chunk data is longer than its size');
      this.state = 'size';
    } else if (this.state === 'size') {
      const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (!size) throw new HttpResponseError(`invalid chunk size "${line.slice(0, 40)}"`);
      this.remaining = parseInt(size[1], 16);
      this.state = this.remaining === 0 ? 'trailer' : 'data';
    } else if (line === '') this.finish();
    return stop;
  }

  finish() {
    this.state = 'done';
    this.onComplete();
  }
}

/** Status and headers of a response head (without its blank line). */
export function parseHead(text) {
  const lines = text.split('\r\n');
  const status = STATUS_LINE.exec(lines[0]);
  if (!status) throw new HttpResponseError(`not an HTTP/1.x status line: "${lines[0].slice(0, 60)}"`);
  const headers = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const match = /[\0\r\n]/.test(line) ? null : HEADER_LINE.exec(line);
    if (!match) throw new HttpResponseError(`malformed header line "${line.slice(0, 60)}"`);
    addHeader(headers, match[1].toLowerCase(), match[2]);
  }
  return { status: Number(status[1]), headers };
}

function addHeader(headers, name, value) {
  const known = headers[name];
  if (known === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
  else if (name === 'content-length' && known !== value) throw new HttpResponseError('two different content-length headers');
  else if (name === 'set-cookie') known.push(value);
  else if (name === 'transfer-encoding') headers[name] = `${known}, ${value}`;
  else if (!SINGLE.has(name)) headers[name] = `${known}, ${value}`;
}
