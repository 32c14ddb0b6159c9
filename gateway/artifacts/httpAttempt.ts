import { GatewayError, type PartialFile } from '../core/index.js';
import { checkDownloadUrl, type PhysicalUrl } from './downloadUrls.js';
import { BatchedWriter } from './batchedWriter.js';
import type { FileHashes } from './fileHashes.js';
import type { HttpGet, HttpGetResponse } from './httpGet.js';

/** Longest chain of redirects one attempt follows (each hop re-checked). */
export const MAX_REDIRECTS = 5;
/** Progress is reported at most this often in bytes (and at every 1 % of a known size). */
const PROGRESS_EVERY_BYTES = 1 << 20;
/**
 * Received chunks (16–64 KiB from the socket) are written to disk in batches of this many bytes:
 * one write (two thread hand-offs) per batch instead of per chunk, memory bounded by two batches.
 */
const WRITE_BATCH_BYTES = 1 << 20;

export interface AttemptInput {
  url: URL;
  allowedDomains: readonly string[];
  maxBytes: number;
  httpGet: HttpGet;
  physicalUrl: PhysicalUrl;
  part: PartialFile;
  hashes: FileHashes;
  signal: AbortSignal;
  /** Called on every chunk (the stall watchdog) and for throttled progress. */
  onBytes(bytesDone: number, totalBytes: number | null, report: boolean): void;
}

/** What one attempt learned: the total size when the server told it. */
export interface AttemptResult {
  totalBytes: number | null;
}

/**
 * One HTTP attempt: follows redirects by hand (each hop must stay https on an allowed domain, or
 * the off-list host is never contacted), asks for the missing bytes with Range when the part file
 * has some, and streams the body into the part file one chunk at a time. Throws a GatewayError:
 * retryable for what another attempt may fix (429, 5xx, a dropped connection), final otherwise.
 */
export async function httpAttempt(input: AttemptInput): Promise<AttemptResult> {
  let url = input.url;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'scigate' };
    if (input.part.sizeBytes > 0) headers.range = `bytes=${input.part.sizeBytes}-`;
    const response = await input.httpGet(input.physicalUrl(url), { headers, signal: input.signal }).catch((error: unknown) => {
      throw dropped(input, error);
    });
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      discard(response);
      const location = response.header('location');
      if (!location) throw new GatewayError('upstream_error', `The server answered ${response.status} without a Location; the download was stopped.`);
      if (hop >= MAX_REDIRECTS) throw new GatewayError('upstream_error', `More than ${MAX_REDIRECTS} redirects; the download was stopped.`);
      url = checkDownloadUrl(new URL(location, url).href, input.allowedDomains, 'redirect target');
      continue;
    }
    try {
      return await readResponse(input, response);
    } finally {
      discard(response);
    }
  }
}

async function readResponse(input: AttemptInput, response: HttpGetResponse): Promise<AttemptResult> {
  const { part, hashes } = input;
  if (response.status === 416) return rangeNotSatisfiable(input, response);
  if (response.status !== 200 && response.status !== 206) throw statusError(response);
  let totalBytes = numberOr(response.header('content-length'));
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.header('content-range') ?? '');
    if (!range || Number(range[1]) !== part.sizeBytes) {
      discard(response);
      await startOver(part, hashes);
      throw new GatewayError('upstream_error', 'The server sent another range than asked for; starting over.', { retryable: true });
    }
    totalBytes = range[3] === '*' ? null : Number(range[3]);
  } else if (part.sizeBytes > 0) {
    // 200 to a Range request: the server sends the whole file, so the part file starts over.
    await startOver(part, hashes);
  }
  if (totalBytes !== null && totalBytes > input.maxBytes) throw tooLarge(input.maxBytes, `the server announces ${totalBytes} bytes`);
  await streamBody(input, response, totalBytes);
  if (totalBytes !== null && part.sizeBytes < totalBytes) {
    throw new GatewayError('upstream_unavailable', `The connection ended at ${part.sizeBytes} of ${totalBytes} bytes; resuming.`, { retryable: true });
  }
  return { totalBytes: totalBytes ?? part.sizeBytes };
}

/**
 * Streams the body into the part file through a BatchedWriter with plain 'data' events (no promise
 * per chunk), pausing the socket only while both write buffers are busy. Each chunk is hashed as it
 * arrives, while it is still in the CPU cache; the hash covers exactly the part file because every
 * hashed chunk is written before the attempt ends (flushed even when the connection drops), and a
 * failed write ends the download (the next run re-hashes the part file from disk).
 */
async function streamBody(input: AttemptInput, response: HttpGetResponse, totalBytes: number | null): Promise<void> {
  const { part, hashes } = input;
  const writer = new BatchedWriter(part, WRITE_BATCH_BYTES);
  const step = Math.max(PROGRESS_EVERY_BYTES, totalBytes ? Math.floor(totalBytes / 100) : 0);
  let received = part.sizeBytes;
  let reported = received;
  const body = response.body;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        input.signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else {
          body.destroy();
          reject(error);
        }
      };
      const onAbort = () => settle(dropped(input, input.signal.reason));
      input.signal.addEventListener('abort', onAbort, { once: true });
      if (input.signal.aborted) return onAbort();
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        received += chunk.byteLength;
        if (received > input.maxBytes) return settle(tooLarge(input.maxBytes, `the server sent more than that (at ${received} bytes)`));
        hashes.update(chunk);
        let wait: Promise<void> | undefined;
        try {
          wait = writer.push(chunk);
        } catch (error) {
          return settle(error);
        }
        if (wait) {
          body.pause();
          wait.then(() => body.resume(), settle);
        }
        const report = received - reported >= step;
        if (report) reported = received;
        input.onBytes(received, totalBytes, report);
      });
      body.once('end', () => settle(body.complete ? undefined : dropped(input, new Error('the body ended early'))));
      body.on('error', (error) => settle(dropped(input, error)));
      body.once('close', () => settle(body.complete ? undefined : dropped(input, new Error('the connection closed'))));
    });
    await writer.flush();
  } catch (error) {
    // What arrived before a dropped connection is good data: written, so the resume asks for the rest.
    // A write that fails then is final; after a final error the writes only need to have settled.
    const flushed = writer.flush();
    if ((error as GatewayError).retryable) await flushed;
    else await flushed.catch(() => {});
    throw error;
  }
  input.onBytes(part.sizeBytes, totalBytes, true);
}

/** Ends a response whose body is not (or no longer) wanted; its socket is not reused. */
function discard(response: HttpGetResponse): void {
  if (!response.body.destroyed) response.body.destroy();
}

async function rangeNotSatisfiable(input: AttemptInput, response: HttpGetResponse): Promise<AttemptResult> {
  discard(response);
  const total = /^bytes \*\/(\d+)$/.exec(response.header('content-range') ?? '');
  // The part file already holds every byte (the connection broke after the last one).
  if (total && Number(total[1]) === input.part.sizeBytes && input.part.sizeBytes > 0) return { totalBytes: input.part.sizeBytes };
  await startOver(input.part, input.hashes);
  throw new GatewayError('upstream_error', 'The server refused the range of the partial file; starting over.', { retryable: true });
}

async function startOver(part: PartialFile, hashes: FileHashes): Promise<void> {
  await part.truncate(0);
  hashes.reset();
}

function statusError(response: HttpGetResponse): GatewayError {
  const status = response.status;
  if (status === 429 || status === 503 || status >= 500) {
    const retryAfterMs = retryAfterMsOf(response.header('retry-after'));
    return new GatewayError(status === 429 ? 'rate_limited' : 'upstream_unavailable', `The file server answered ${status}; retrying.`, {
      retryable: true,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status === 404 || status === 410) {
    return new GatewayError('not_found', `The file server answered ${status}: the file is gone. Search again for a current candidate.`);
  }
  return new GatewayError('upstream_error', `The file server answered ${status}; the download was stopped.`);
}

/** Retry-After as seconds or an HTTP date, in ms. */
export function retryAfterMsOf(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function dropped(input: AttemptInput, error: unknown): GatewayError {
  if (input.signal.aborted && input.signal.reason instanceof GatewayError) return input.signal.reason;
  if (input.signal.aborted) return new GatewayError('cancelled', 'The download was cancelled.');
  return new GatewayError('upstream_unavailable', `The connection to the file server broke at ${input.part.sizeBytes} bytes; resuming.`, {
    retryable: true,
    cause: error,
  });
}

function tooLarge(maxBytes: number, why: string): GatewayError {
  return new GatewayError('response_too_large', `The file is over the download limit of ${maxBytes} bytes (${why}); it was discarded.`, {
    details: { reason: 'size_limit', maxBytes },
  });
}

function numberOr(text: string | null): number | null {
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}
