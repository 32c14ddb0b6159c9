// The hasher of a download run: a worker_thread started by downloadWorker.mjs that hashes the part
// file by reading it back from the page cache, a few MiB behind the writer, so that sha256 (and the
// candidate's md5 or sha1) costs the thread that receives and writes nothing: on two cores the two
// run side by side. It reads only bytes the download worker said are written, with positional reads
// on the part file's descriptor (shared by every thread of the process) into one reused buffer.
// Plain JavaScript because Node 20 runs worker files without a TypeScript loader.
//
// In (postMessage from the download worker, in order with its writes):
//   { type: 'start', otherAlgorithm? } – hashes start over (sha256, and md5 or sha1 when named)
//   { type: 'reset' }                  – start over: the part file was truncated
//   { type: 'upTo', fd, bytes }        – the first `bytes` bytes of the file are written: hash them
//   { type: 'digests', fd, bytes }     – hash up to `bytes`, then → { type: 'digests', sha256, other } | { type: 'digests', error }
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** One read of the part file; large reads keep the per-call cost of reading and hashing small. */
const READ_BYTES = 1 << 20;
const buffer = Buffer.allocUnsafe(READ_BYTES);

let otherAlgorithm;
let sha256;
let other;
/** Bytes of the file hashed so far, from its start. */
let hashed = 0;
/** Why the file could not be read as announced; nothing more is hashed until the next start or reset. */
let unreadable;

function reset() {
  sha256 = createHash('sha256');
  other = otherAlgorithm ? createHash(otherAlgorithm) : undefined;
  hashed = 0;
  unreadable = undefined;
}
reset();

function hashUpTo(fd, bytes) {
  while (!unreadable && hashed < bytes) {
    let read;
    try {
      read = readSync(fd, buffer, 0, Math.min(READ_BYTES, bytes - hashed), hashed);
    } catch (error) {
      unreadable = error.message;
      return;
    }
    if (read === 0) {
      unreadable = `the part file ends at ${hashed} bytes, not ${bytes}`;
      return;
    }
    const chunk = buffer.subarray(0, read);
    sha256.update(chunk);
    other?.update(chunk);
    hashed += read;
  }
}

parentPort.on('message', (message) => {
  switch (message.type) {
    case 'start':
      otherAlgorithm = message.otherAlgorithm;
      return reset();
    case 'reset':
      return reset();
    case 'upTo':
      return hashUpTo(message.fd, message.bytes);
    case 'digests':
      hashUpTo(message.fd, message.bytes);
      if (unreadable) return parentPort.postMessage({ type: 'digests', error: `The part file could not be hashed (${unreadable}).` });
      parentPort.postMessage({ type: 'digests', sha256: sha256.digest('hex'), other: other?.digest('hex') });
      // A digest finishes a hash: whatever comes next starts over.
      return reset();
  }
});
