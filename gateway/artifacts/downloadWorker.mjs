// The byte mover of one download run: a worker_thread that sends the GET, receives the body and
// writes it to the part file's descriptor; its own worker (hashWorker.mjs) hashes the part file a
// MiB behind it. The socket is read into one reused buffer (rawHttpGet.mjs), so receiving allocates
// nothing per read, and receiving, writing and hashing cost the main thread nothing.
// It decides nothing: the main thread checks every
// redirect, status, range and size and verifies the checksum; it opened the part file and owns it.
// Plain JavaScript because Node 20 runs worker files without a TypeScript loader (as pdfTextWorker.mjs).
//
// A worker serves one download run at a time and may be kept warm for the next one.
// In (postMessage), one operation at a time:
//   { type: 'start', otherAlgorithm? } – a new run: hashes start over (sha256, and md5 or sha1 when named)
//   { type: 'reset' }                  – start the hashes over (the part file was truncated)
//   { type: 'get', url, headers }      – one GET, no redirects → { type: 'head', status, headers } | { type: 'failed', message }
//   { type: 'discard' }                – drop the current response
//   { type: 'stream', fd, received, maxBytes } – append the body to `fd` from offset `received` (the
//                                        bytes before it, left by an earlier run, are hashed meanwhile)
//                                        → { type: 'bytes', received }* (at most every 50 ms), then
//                                        { type: 'ended', outcome: 'complete' | 'dropped' | 'too_large' | 'write_failed' | 'aborted', received, message? }
//   { type: 'abort' }                  – end the current request or body read
//   { type: 'digests', fd, bytes }     → { type: 'digests', sha256, other } | { type: 'digests', error }:
//                                        the hashes of the part file's first `bytes` bytes
// `received` counts the bytes in the part file: every one of them written (and all but the last
// SYNC_EVERY_BYTES or so already fdatasync'ed).
import { fdatasync, writeSync } from 'node:fs';
import { parentPort, Worker } from 'node:worker_threads';
import { rawGet } from './rawHttpGet.mjs';

/** The main thread hears of received bytes (its stall watchdog, progress) this long after they arrive at most, in ms. */
const HEARTBEAT_MS = 50;
/**
 * The part file is fdatasync'ed (on the thread pool, one at a time) after every this many bytes
 * written: the kernel would otherwise keep the whole file dirty until the commit's fsync, which then
 * writes it all while nothing else happens (about 80 ms per 200 MiB here); this way all but the last
 * few MiB are on disk when the body ends.
 */
const SYNC_EVERY_BYTES = 32 << 20;

/**
 * The hasher is told how far the file is written every this many bytes (a message, not a chunk:
 * nothing is copied); small, so that little is left to hash when the body ends.
 */
const HASH_NOTE_EVERY_BYTES = 1 << 20;

/**
 * Started with this worker and living as long as it: reading back and hashing 200 MiB costs about
 * 150 ms of CPU, which would otherwise be spent between two reads of the socket. Its answers
 * (digests) go to the main thread as they are; if it fails, this worker fails with it.
 */
const hasher = new Worker(new URL('./hashWorker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 } });
hasher.on('message', (message) => post(message));
hasher.on('error', (error) => {
  throw error;
});
hasher.on('exit', (code) => {
  throw new Error(`the hash worker exited (code ${code})`);
});
function toHasher(message) {
  hasher.postMessage(message);
}

/** The current GET: `{ request, answered }`; `request.stream` takes its body, `request.destroy` drops it. */
let current;
let reading;

function post(message) {
  parentPort.postMessage(message);
}

function get(url, headers) {
  discard();
  const exchange = { answered: false };
  current = exchange;
  const answer = (message) => {
    if (exchange.answered) return;
    exchange.answered = true;
    post(message);
  };
  try {
    exchange.request = rawGet(url, headers, {
      onHead: ({ status, headers: responseHeaders }) => answer({ type: 'head', status, headers: responseHeaders }),
      onFailed: (message) => answer({ type: 'failed', message }),
    });
  } catch (error) {
    answer({ type: 'failed', message: error.message });
  }
}

function discard() {
  current?.request?.destroy();
  current = undefined;
}

/**
 * Reads the current body and appends each run of bytes to the part file at once, straight from the
 * socket's read buffer (a blocking write: this thread has nothing else to do). The hasher hears every
 * MiB how far the file is written and hashes it from the file, so the hashes asked for at the end
 * cover exactly the bytes in the file, whatever ended the read. The read is answered only when the
 * fdatasync in flight is done: the main thread may truncate or close the descriptor after 'ended'.
 */
function stream(fd, received, maxBytes) {
  const request = current?.request;
  let ending;
  let beat;
  let syncing = false;
  let syncedUpTo = received;
  let syncFailure;
  let notedUpTo = received;
  // The bytes an earlier run left are hashed while this one's arrive.
  if (received > 0) toHasher({ type: 'upTo', fd, bytes: received });
  /** How the read ended, answered once no fdatasync is in flight. */
  let ended;
  const answer = () => {
    if (!ended || syncing) return;
    reading = undefined;
    // A failed fdatasync is reported now: the kernel may forget the error before the commit's fsync.
    const { outcome, message } = syncFailure && ended.outcome !== 'too_large' ? { outcome: 'write_failed', message: syncFailure } : ended;
    post({ type: 'ended', outcome, received, ...(message ? { message } : {}) });
  };
  const end = (outcome, message) => {
    if (ending) return;
    ending = true;
    clearTimeout(beat);
    if (outcome !== 'complete') request?.destroy();
    ended = { outcome, message };
    answer();
  };
  const sync = () => {
    syncing = true;
    const upTo = received;
    fdatasync(fd, (error) => {
      syncing = false;
      if (error) syncFailure ??= `fdatasync: ${error.message}`;
      else syncedUpTo = upTo;
      if (error && !ending) end('write_failed', syncFailure);
      else answer();
    });
  };
  reading = { end };
  if (!request) return end('dropped', 'no response to read');
  request.stream({
    onBody: (buffer, start, finish) => {
      if (ending) return;
      const length = finish - start;
      if (received + length > maxBytes) return end('too_large', `at ${received + length} bytes`);
      try {
        for (let offset = 0; offset < length; ) offset += writeSync(fd, buffer, start + offset, length - offset, received + offset);
      } catch (error) {
        return end('write_failed', error.message);
      }
      received += length;
      if (received - notedUpTo >= HASH_NOTE_EVERY_BYTES) {
        notedUpTo = received;
        toHasher({ type: 'upTo', fd, bytes: received });
      }
      if (!syncing && received - syncedUpTo >= SYNC_EVERY_BYTES) sync();
      // Throttled, and trailing: the last bytes before a pause are reported too.
      beat ??= setTimeout(() => {
        beat = undefined;
        if (!ending) post({ type: 'bytes', received });
      }, HEARTBEAT_MS);
    },
    onEnd: (outcome, message) => end(outcome, outcome === 'complete' ? undefined : message),
  });
}

parentPort.on('message', (message) => {
  switch (message.type) {
    case 'start':
      discard();
      return toHasher({ type: 'start', otherAlgorithm: message.otherAlgorithm });
    case 'reset':
      return toHasher({ type: 'reset' });
    case 'get':
      return get(message.url, message.headers);
    case 'discard':
      return discard();
    case 'stream':
      return stream(message.fd, message.received, message.maxBytes);
    case 'abort':
      if (reading) return reading.end('aborted');
      // Before the head, the request answers 'failed'.
      return discard();
    case 'digests':
      return toHasher({ type: 'digests', fd: message.fd, bytes: message.bytes });
  }
});
