import * as crypto from 'node:crypto';

/**
 * sha256 of bytes as lower-case hex: the CAS address of those bytes. A governed call hashes its
 * arguments and its result; the one-shot `crypto.hash` (Node 20.12+) skips the Hash object and
 * takes 0.3 us where `createHash` takes 0.7 us for a short input. Older Node 20 releases take the
 * Hash object path.
 */
export const sha256Hex: (bytes: Uint8Array) => string =
  typeof crypto.hash === 'function' ? (bytes) => crypto.hash('sha256', bytes, 'hex') : (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** sha256 of bytes, or of a string's UTF-8, as the 32 raw bytes (one-shot where Node has it, as above). */
export const sha256Bytes: (data: string | Uint8Array) => Buffer =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'buffer') : (data) => crypto.createHash('sha256').update(data).digest();
