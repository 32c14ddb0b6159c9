// One GET over its own connection (net or tls), read into one reused buffer: the download worker's
// HTTP client (see httpResponseReader.mjs for why not node:http). Certificates are checked as by
// node:https (the default CA store, NODE_EXTRA_CA_CERTS included). After the head the socket is
// paused until the caller takes the body (`stream`) or drops it, so an undecided body waits in the
// kernel's buffers, not in memory. Plain JavaScript: worker files run without a TypeScript loader.
import { isIP, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { HttpResponseReader } from './httpResponseReader.mjs';

/** Each socket read lands in this one buffer: larger reads, fewer callbacks, no allocation per read. */
const READ_BUFFER_BYTES = 1 << 20;
/** Body bytes that may arrive while paused (a TLS record decrypted before the pause took hold). */
const MAX_HELD_BYTES = 8 << 20;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Sends `GET url` with `headers` (plus Host and Connection: close). Calls `onHead({ status, headers })`
 * or `onFailed(message)` (before a head: connect, TLS, or a refused head), once. Returns the request:
 * `stream({ onBody(buffer, start, end), onEnd(outcome, message?) })` takes the body (outcome
 * 'complete' or 'dropped'; a throw from onBody ends the request), `destroy()` drops it. `ca` replaces
 * the trusted certificates (tests; the worker never passes it).
 */
export function rawGet(url, headers, { onHead, onFailed }, { ca } = {}) {
  const target = new URL(url);
  const request = requestBytes(target, headers);
  let headSeen = false;
  let consumer;
  /** Body bytes, and how the response ended, while no consumer has taken the body yet. */
  let held = [];
  let heldBytes = 0;
  let heldEnd;
  let ended = false;
  const end = (outcome, message) => {
    if (ended) return;
    ended = true;
    socket.destroy();
    if (!headSeen) onFailed(message ?? 'the connection closed before a response');
    else if (consumer) consumer.onEnd(outcome, message);
    else heldEnd = { outcome, message };
  };
  const reader = new HttpResponseReader({
    onHead: (head) => {
      headSeen = true;
      socket.pause();
      onHead(head);
    },
    onBody: (buffer, start, finish) => {
      if (consumer) return consumer.onBody(buffer, start, finish);
      heldBytes += finish - start;
      if (heldBytes > MAX_HELD_BYTES) throw new Error('too many body bytes arrived before the body was taken');
      held.push(Buffer.from(buffer.subarray(start, finish)));
    },
    onComplete: () => end('complete'),
  });
  const onread = {
    buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
    callback: (bytes, buffer) => {
      if (ended) return false;
      try {
        reader.feed(buffer, 0, bytes);
      } catch (error) {
        end('dropped', error.message);
        return false;
      }
      return !ended;
    },
  };
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const socket =
    target.protocol === 'https:'
      ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], onread, ...(ca ? { ca } : {}) })
      : netConnect({ host, port, onread });
  socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(request));
  socket.on('error', (error) => end('dropped', error.message));
  const closed = () => end(reader.endOfStream() ? 'complete' : 'dropped', 'the connection closed before the body ended');
  socket.once('end', closed);
  socket.once('close', closed);
  return {
    stream(next) {
      consumer = next;
      const pending = held;
      held = [];
      try {
        for (const bytes of pending) next.onBody(bytes, 0, bytes.length);
      } catch (error) {
        return ended ? next.onEnd('dropped', error.message) : end('dropped', error.message);
      }
      if (heldEnd) return next.onEnd(heldEnd.outcome, heldEnd.message);
      if (!ended) socket.resume();
    },
    destroy(message = 'aborted') {
      if (!ended) end('aborted', message);
    },
  };
}

function requestBytes(target, headers) {
  const path = `${target.pathname}${target.search}`;
  if (/[\s\0-\x1f\x7f]/.test(path)) throw new Error('the URL path has characters a request line cannot carry');
  let text = `GET ${path} HTTP/1.1\r\nHost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) throw new Error(`invalid request header "${name}"`);
    text += `${name}: ${value}\r\n`;
  }
  return Buffer.from(`${text}Connection: close\r\n\r\n`, 'latin1');
}
