import { parseRetryAfterMs } from '../../catalog/index.js';
import { GatewayError, type PartialFile } from '../core/index.js';
import { checkDownloadUrl, type PhysicalUrl } from './downloadUrls.js';
import type { TransferHead, WorkerTransfer } from './workerTransfer.js';

/** Longest chain of redirects one attempt follows (each hop re-checked). */
export const MAX_REDIRECTS = 5;
/** Progress is reported at most this often in bytes (and at every 1 % of a known size). */
const PROGRESS_EVERY_BYTES = 1 << 20;

export interface AttemptInput {
  url: URL;
  allowedDomains: readonly string[];
  maxBytes: number;
  /** The run's worker: sends the requests, receives and hashes the bodies. */
  transfer: WorkerTransfer;
  physicalUrl: PhysicalUrl;
  part: PartialFile;
  signal: AbortSignal;
  /** Called whenever bytes arrived (the stall watchdog) and for throttled progress. */
  onBytes(bytesDone: number, totalBytes: number | null, report: boolean): void;
  /** The file's size as an earlier attempt's server told it: what a response that says none must reach. */
  knownTotalBytes?: number | null;
}

/** What one attempt learned: the total size when the server told it. */
export interface AttemptResult {
  totalBytes: number | null;
}

/**
 * One HTTP attempt: follows redirects by hand (each hop must stay https on an allowed domain, or
 * the off-list host is never contacted), asks for the missing bytes with Range when the part file
 * has some, and streams the body into the part file. Throws a GatewayError: retryable for what
 * another attempt may fix (429, 5xx, a dropped connection), final otherwise.
 */
export async function httpAttempt(input: AttemptInput): Promise<AttemptResult> {
  let url = input.url;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'scigate' };
    if (input.part.sizeBytes > 0) headers.range = `bytes=${input.part.sizeBytes}-`;
    const response = await input.transfer.get(input.physicalUrl(url), headers, input.signal).catch((error: unknown) => {
      throw dropped(input, error);
    });
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      input.transfer.discard();
      const location = response.header('location');
      if (!location) throw new GatewayError('upstream_error', `The server answered ${response.status} without a Location; the download was stopped.`);
      if (hop >= MAX_REDIRECTS) throw new GatewayError('upstream_error', `More than ${MAX_REDIRECTS} redirects; the download was stopped.`);
      url = checkDownloadUrl(new URL(location, url).href, input.allowedDomains, 'redirect target');
      continue;
    }
    try {
      return await readResponse(input, response);
    } finally {
      input.transfer.discard();
    }
  }
}

async function readResponse(input: AttemptInput, response: TransferHead): Promise<AttemptResult> {
  const { part } = input;
  if (response.status === 416) return rangeNotSatisfiable(input, response);
  if (response.status !== 200 && response.status !== 206) throw statusError(response);
  let totalBytes = numberOr(response.header('content-length'));
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.header('content-range') ?? '');
    if (!range || Number(range[1]) !== part.sizeBytes) {
      input.transfer.discard();
      await startOver(input);
      throw new GatewayError('upstream_error', 'The server sent another range than asked for; starting over.', { retryable: true });
    }
    // `/*`: the total is not told, but a range that ends short of its own last byte is not the file.
    totalBytes = range[3] === '*' ? Math.max(input.knownTotalBytes ?? 0, Number(range[2]) + 1) : Number(range[3]);
  } else {
    // A whole file sent without its length (chunked) must still reach the size an earlier attempt was told.
    totalBytes ??= input.knownTotalBytes ?? null;
    // 200 to a Range request: the server sends the whole file, so the part file starts over.
    if (part.sizeBytes > 0) await startOver(input);
  }
  if (totalBytes !== null && totalBytes > input.maxBytes) throw tooLarge(input.maxBytes, `the server announces ${totalBytes} bytes`);
  await streamBody(input, totalBytes);
  if (totalBytes !== null && part.sizeBytes > totalBytes) {
    // A body longer than its range (a cache answering a Range with the whole file): the part file holds
    // bytes of no known place, so it starts over rather than be saved longer than the file.
    const received = part.sizeBytes;
    await startOver(input);
    throw new GatewayError('upstream_error', `The server sent ${received} bytes of a ${totalBytes}-byte file; starting over.`, { retryable: true });
  }
  if (totalBytes !== null && part.sizeBytes < totalBytes) {
    throw new GatewayError('upstream_unavailable', `The connection ended at ${part.sizeBytes} of ${totalBytes} bytes.`, { retryable: true });
  }
  return { totalBytes: totalBytes ?? part.sizeBytes };
}

/**
 * Streams the body into the part file: the worker receives it, appends it through the part file's
 * descriptor and hashes it, so the hashes cover exactly the part file whatever ends the read (a
 * dropped connection, an abort, the size limit); a failed write ends the download.
 */
async function streamBody(input: AttemptInput, totalBytes: number | null): Promise<void> {
  const { part } = input;
  const step = Math.max(PROGRESS_EVERY_BYTES, totalBytes ? Math.floor(totalBytes / 100) : 0);
  let reported = part.sizeBytes;
  const end = await input.transfer.stream({ fd: part.fd, received: part.sizeBytes, maxBytes: input.maxBytes }, input.signal, (received) => {
    const report = received - reported >= step;
    if (report) reported = received;
    input.onBytes(received, totalBytes, report);
  });
  part.appended(end.received - part.sizeBytes);
  if (end.outcome === 'too_large') throw tooLarge(input.maxBytes, `the server sent more than that (${end.message ?? ''})`);
  if (end.outcome === 'write_failed') throw new GatewayError('internal', `Writing the part file failed (${end.message ?? 'unknown error'}); check the data directory's disk, then retry the job.`);
  if (end.outcome === 'aborted') throw dropped(input, input.signal.reason);
  if (end.outcome === 'dropped') throw dropped(input, new Error(end.message ?? 'the connection broke'));
  input.onBytes(part.sizeBytes, totalBytes, true);
}

async function rangeNotSatisfiable(input: AttemptInput, response: TransferHead): Promise<AttemptResult> {
  input.transfer.discard();
  const total = /^bytes \*\/(\d+)$/.exec(response.header('content-range') ?? '');
  // The part file already holds every byte (the connection broke after the last one).
  if (total && Number(total[1]) === input.part.sizeBytes && input.part.sizeBytes > 0) return { totalBytes: input.part.sizeBytes };
  await startOver(input);
  throw new GatewayError('upstream_error', 'The server refused the range of the partial file; starting over.', { retryable: true });
}

async function startOver(input: AttemptInput): Promise<void> {
  await input.part.truncate(0);
  input.transfer.reset();
}

function statusError(response: TransferHead): GatewayError {
  const status = response.status;
  if (status === 429 || status === 503 || status >= 500) {
    const retryAfterMs = parseRetryAfterMs(response.header('retry-after'), Date.now());
    return new GatewayError(status === 429 ? 'rate_limited' : 'upstream_unavailable', `The file server answered ${status}.`, {
      retryable: true,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status === 404 || status === 410) {
    return new GatewayError('not_found', `The file server answered ${status}: the file is gone. Search again for a current candidate.`);
  }
  return new GatewayError('upstream_error', `The file server answered ${status}; the download was stopped.`);
}

function dropped(input: AttemptInput, error: unknown): GatewayError {
  if (input.signal.aborted && input.signal.reason instanceof GatewayError) return input.signal.reason;
  if (input.signal.aborted) return new GatewayError('cancelled', 'The download was cancelled.');
  // What broke it (a reset, a refused connection, a response that is no HTTP/1.1 the reader accepts) is said.
  const why = error instanceof Error && error.message ? ` (${error.message.slice(0, 200)})` : '';
  return new GatewayError('upstream_unavailable', `The connection to the file server broke at ${input.part.sizeBytes} bytes${why}.`, {
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
