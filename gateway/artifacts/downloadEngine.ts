import type { RetryPolicy } from '../../catalog/index.js';
import { GatewayError, linkSignals, type Clock, type PartialFile } from '../core/index.js';
import { checkDownloadUrl, type PhysicalUrl } from './downloadUrls.js';
import { verifiedSha256, type ChecksumAlgorithm } from './fileHashes.js';
import { httpAttempt } from './httpAttempt.js';
import { WorkerTransfer } from './workerTransfer.js';

/** Hard bound on HTTP attempts of one run, whatever the progress (every loop is bounded). */
const MAX_ATTEMPTS = 50;

/** What to fetch and the limits it must stay in. */
export interface DownloadRequest {
  /** The candidate's public https URL. */
  url: string;
  allowedDomains: readonly string[];
  /** The size limit, enforced mid-stream. */
  maxBytes: number;
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
}

/** The side effects a download uses, passed in (house style §4). */
export interface DownloadEnvironment {
  clock: Clock;
  random: () => number;
  physicalUrl: PhysicalUrl;
  /** Backoff between failed attempts (the source's manifest policy); Retry-After wins, capped at maxDelayMs. */
  retry: RetryPolicy;
  /** An attempt that receives nothing for this long is dropped and resumed, in ms. */
  stallTimeoutMs: number;
  /** Takes a slot of the source's limiter for one attempt; the sleep between attempts holds none. */
  slot(signal: AbortSignal): Promise<() => void>;
}

/** Told of every transition (awaited: the caller persists it) and of progress. */
export interface DownloadObserver {
  transition(state: 'running' | 'retrying' | 'verifying', facts: { bytesDone: number; totalBytes: number | null; attempts: number; error?: GatewayError }): Promise<void>;
  progress(bytesDone: number, totalBytes: number | null): void;
}

export interface DownloadOutcome {
  sizeBytes: number;
  sha256: string;
  attempts: number;
}

/**
 * Streams a file into its part file with bounded memory: Range resume after a dropped connection
 * (and from a part file left by an earlier run, re-hashed meanwhile), backoff honouring Retry-After,
 * redirects re-checked hop by hop, the size limit mid-stream, then the checksum. The caller commits
 * the part file (fsync + rename) or discards it; this never touches the final name. The bytes are
 * received and hashed in worker threads (workerTransfer.ts); every decision is taken here.
 */
export async function runDownload(request: DownloadRequest, part: PartialFile, env: DownloadEnvironment, observer: DownloadObserver, signal: AbortSignal): Promise<DownloadOutcome> {
  const url = checkDownloadUrl(request.url, request.allowedDomains, 'candidate URL');
  const transfer = new WorkerTransfer(request.checksum?.algorithm);
  let clean = false;
  try {
    const outcome = await downloadWith(transfer, url, request, part, env, observer, signal);
    clean = true;
    return outcome;
  } finally {
    await transfer.close(clean);
  }
}

async function downloadWith(
  transfer: WorkerTransfer, url: URL, request: DownloadRequest, part: PartialFile, env: DownloadEnvironment, observer: DownloadObserver, signal: AbortSignal,
): Promise<DownloadOutcome> {
  let totalBytes: number | null = null;
  let failures = 0;
  for (let attempts = 1; ; attempts++) {
    const before = part.sizeBytes;
    try {
      const result = await withSlotAndWatchdog(env, signal, async (attemptSignal, touch) => {
        // Running once a slot of the source's limiter is held; queued (or retrying) until then.
        await observer.transition('running', { bytesDone: before, totalBytes, attempts });
        return httpAttempt({
          url, allowedDomains: request.allowedDomains, maxBytes: request.maxBytes, transfer, physicalUrl: env.physicalUrl, part,
          signal: attemptSignal, knownTotalBytes: totalBytes,
          onBytes: (done, total, report) => {
            touch();
            totalBytes = total;
            if (report) observer.progress(done, total);
          },
        });
      });
      totalBytes = result.totalBytes;
      // The hasher finishes the last MiB while the verifying state is persisted; both are waited for.
      const [digests, verifying] = await Promise.allSettled([
        transfer.digests(part.fd, part.sizeBytes),
        observer.transition('verifying', { bytesDone: part.sizeBytes, totalBytes, attempts }),
      ]);
      if (verifying.status === 'rejected') throw verifying.reason;
      if (digests.status === 'rejected') throw digests.reason;
      return { sizeBytes: part.sizeBytes, sha256: verifiedSha256(digests.value, request.checksum), attempts };
    } catch (thrown) {
      const error = GatewayError.from(thrown);
      if (signal.aborted) throw signal.reason instanceof GatewayError ? signal.reason : new GatewayError('cancelled', 'The download was cancelled.');
      // A failure after new bytes arrived is a fresh start for the backoff, not one more strike.
      failures = part.sizeBytes > before ? 1 : failures + 1;
      if (!error.retryable) throw withAttempts(error, attempts);
      if (failures >= Math.max(env.retry.attempts, 3) || attempts >= MAX_ATTEMPTS) throw gaveUp(error, attempts);
      await observer.transition('retrying', { bytesDone: part.sizeBytes, totalBytes, attempts, error });
      await env.clock.sleep(backoffMs(error, failures, env), signal);
    }
  }
}

/** Runs one attempt holding a limiter slot, aborting it with `upstream_timeout` (retryable) when it stalls. */
async function withSlotAndWatchdog<T>(
  env: DownloadEnvironment,
  signal: AbortSignal,
  attempt: (signal: AbortSignal, touch: () => void) => Promise<T>,
): Promise<T> {
  const release = await env.slot(signal);
  const stalled = new AbortController();
  const finished = new AbortController();
  const linked = linkSignals([signal, stalled.signal]);
  let lastActivity = env.clock.now();
  void (async () => {
    while (!finished.signal.aborted) {
      // Wakes when the quiet time would reach the limit if nothing arrives meanwhile (not a whole
      // limit after each check: a byte just after one would let the stall run almost twice as long).
      await env.clock.sleep(Math.max(1, lastActivity + env.stallTimeoutMs - env.clock.now()), finished.signal).catch(() => {});
      if (!finished.signal.aborted && env.clock.now() - lastActivity >= env.stallTimeoutMs) {
        stalled.abort(new GatewayError('upstream_timeout', `The file server sent nothing for ${env.stallTimeoutMs} ms.`, { retryable: true }));
        return;
      }
    }
  })();
  try {
    return await attempt(linked.signal, () => (lastActivity = env.clock.now()));
  } catch (error) {
    if (stalled.signal.aborted && !signal.aborted) throw stalled.signal.reason;
    throw error;
  } finally {
    finished.abort();
    linked.release();
    release();
  }
}

function backoffMs(error: GatewayError, failures: number, env: DownloadEnvironment): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, env.retry.maxDelayMs);
  const ceiling = Math.min(env.retry.baseDelayMs * 2 ** (failures - 1), env.retry.maxDelayMs);
  return Math.round(ceiling / 2 + (env.random() * ceiling) / 2);
}

function withAttempts(error: GatewayError, attempts: number): GatewayError {
  error.attempts = attempts;
  return error;
}

/** A retryable failure that outlasted the attempts: said as final, with what to do next. */
function gaveUp(error: GatewayError, attempts: number): GatewayError {
  error.message = `${error.message} Gave up after ${attempts} attempts; the bytes received are kept, so retrying the download job later (admin page, or POST /api/download-jobs/<id>/retry) resumes it.`;
  return withAttempts(error, attempts);
}
