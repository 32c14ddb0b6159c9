// The byte mover of one download run: a worker_thread that sends the GET, receives the body, hashes
// every byte and hands the body to the main thread in reused 1 MiB batches. Its small heap keeps the
// garbage collections caused by Node's per-read HTTP buffers cheap and off the gateway's event loop,
// and sha256 runs beside the main thread. It decides nothing: the main thread checks every redirect,
// status, range and size, writes the batches to the part file and verifies the checksum. Plain
// JavaScript because Node 20 runs worker files without a TypeScript loader (as pdfTextWorker.mjs).
//
// In (postMessage), one operation at a time:
//   { type: 'hash', chunk }            – hash bytes already in the part file (before a resume)
//   { type: 'reset' }                  – start the hashes over (the part file was truncated)
//   { type: 'get', url, headers }      – one GET, no redirects → { type: 'head', status, headers } | { type: 'failed', message }
//   { type: 'discard' }                – drop the current response
//   { type: 'stream', received, maxBytes } – read the body → { type: 'batch', bytes }*, { type: 'bytes', received }*,
//                                        then { type: 'ended', outcome: 'complete' | 'dropped' | 'too_large' | 'aborted', received, message? }
//   { type: 'buffer', buffer }         – a batch's ArrayBuffer back from the main thread, for reuse
//   { type: 'abort' }                  – end the current request or body read
//   { type: 'digests' }                → { type: 'digests', sha256, other }
// Every batch of a stream is posted before its 'ended', and every hashed byte is in some batch.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

const { otherAlgorithm, batchBytes, batches } = workerData;
/** Receiving pauses while the main thread holds every batch buffer: memory stays at `batches` × `batchBytes`. */
const pool = Array.from({ length: batches }, () => new Uint8Array(batchBytes));
/** The main thread hears of received bytes (its stall watchdog, progress) this long after they arrive at most, in ms. */
const HEARTBEAT_MS = 50;

let sha256;
let other;
function reset() {
  sha256 = createHash('sha256');
  other = otherAlgorithm ? createHash(otherAlgorithm) : undefined;
}
function hash(chunk) {
  sha256.update(chunk);
  other?.update(chunk);
}
reset();

let request;
let response;
let reading;

function post(message, transfer) {
  parentPort.postMessage(message, transfer);
}

function get(url, headers) {
  discard();
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  let answered = false;
  const req = send(target, { method: 'GET', headers }, (res) => {
    answered = true;
    response = res;
    post({ type: 'head', status: res.statusCode ?? 0, headers: res.headers });
  });
  request = req;
  // Kept for the request's whole life: an error after the head reaches the body's reader instead.
  req.on('error', (error) => {
    if (!answered) {
      answered = true;
      post({ type: 'failed', message: error.message });
    }
  });
  req.end();
}

function discard() {
  if (response && !response.destroyed) response.destroy();
  if (request && !request.destroyed) request.destroy();
  response = undefined;
  request = undefined;
}

/** Reads the current body into batches; see the header for what it posts. */
function stream(received, maxBytes) {
  const res = response;
  const queue = [];
  let filling;
  let filled = 0;
  let ending;
  let beat;
  const sendFilling = () => {
    const bytes = filling.subarray(0, filled);
    filling = undefined;
    filled = 0;
    post({ type: 'batch', bytes }, [bytes.buffer]);
  };
  const drain = () => {
    while (queue.length > 0) {
      if (!filling) {
        filling = pool.pop();
        if (!filling) {
          res.pause();
          return;
        }
      }
      const chunk = queue[0];
      const take = Math.min(filling.length - filled, chunk.length);
      filling.set(take === chunk.length ? chunk : chunk.subarray(0, take), filled);
      filled += take;
      if (take === chunk.length) queue.shift();
      else queue[0] = chunk.subarray(take);
      if (filled === filling.length) sendFilling();
    }
    if (ending) {
      clearTimeout(beat);
      if (filling && filled > 0) sendFilling();
      if (filling) pool.push(filling);
      filling = undefined;
      reading = undefined;
      post({ type: 'ended', ...ending, received });
      return;
    }
    if (res.isPaused()) res.resume();
  };
  const end = (outcome, message) => {
    if (ending) return;
    ending = { outcome, ...(message ? { message } : {}) };
    if (outcome !== 'complete') res.destroy();
    drain();
  };
  reading = { drain, end };
  res.on('data', (chunk) => {
    if (ending) return;
    if (received + chunk.length > maxBytes) {
      received += chunk.length;
      return end('too_large');
    }
    received += chunk.length;
    hash(chunk);
    queue.push(chunk);
    drain();
    // Throttled, and trailing: the last bytes before a pause are reported too.
    beat ??= setTimeout(() => {
      beat = undefined;
      if (!ending) post({ type: 'bytes', received });
    }, HEARTBEAT_MS);
  });
  res.once('end', () => end(res.complete ? 'complete' : 'dropped', 'the body ended early'));
  res.on('error', (error) => end('dropped', error.message));
  res.once('close', () => end(res.complete ? 'complete' : 'dropped', 'the connection closed'));
}

parentPort.on('message', (message) => {
  switch (message.type) {
    case 'hash':
      return hash(message.chunk);
    case 'reset':
      return reset();
    case 'get':
      return get(message.url, message.headers);
    case 'discard':
      return discard();
    case 'stream':
      return stream(message.received, message.maxBytes);
    case 'buffer':
      pool.push(new Uint8Array(message.buffer));
      return reading?.drain();
    case 'abort':
      if (reading) return reading.end('aborted');
      // Before the head, the request's error handler answers 'failed'.
      if (request && !response) return request.destroy(new Error('aborted'));
      return discard();
    case 'digests':
      return post({ type: 'digests', sha256: sha256.digest('hex'), other: other?.digest('hex') });
  }
});
