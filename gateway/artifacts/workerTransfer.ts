import { Worker } from 'node:worker_threads';
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../core/index.js';
import type { ChecksumAlgorithm } from './fileHashes.js';

const WORKER_URL = new URL('./downloadWorker.mjs', import.meta.url);
/** The worker only moves bytes: a small heap keeps its collections short. */
const WORKER_HEAP_MB = 32;
/** A small young generation keeps the worker's resident memory (and each scavenge) small. */
const WORKER_YOUNG_MB = 8;

/**
 * Workers kept warm (unref'd: they never keep the process alive) after a download that ended
 * cleanly: starting one costs 60–130 ms on a loaded machine, most of a small download's time.
 */
const warm: Array<{ worker: Worker; unpark(): void }> = [];
const MAX_WARM = 1;

function startWorker(): Worker {
  return new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
}

/** Keeps an idle worker warm (unref'd); one that dies while idle (it should not) leaves the pool. */
function park(worker: Worker): void {
  const onError = () => {};
  const onExit = () => {
    const at = warm.findIndex((entry) => entry.worker === worker);
    if (at >= 0) warm.splice(at, 1);
  };
  worker.on('error', onError);
  worker.on('exit', onExit);
  worker.unref();
  warm.push({
    worker,
    unpark: () => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      worker.ref();
    },
  });
}

/**
 * Starts a worker for a download about to be planned and authorized when none is warm, so that its
 * start (60–150 ms on a loaded machine) runs while the plan is stored and the user decides.
 */
export function warmDownloadWorker(): void {
  if (warm.length === 0) park(startWorker());
}

/** The head of one response: status and headers; its body stays in the worker until streamed or discarded. */
export interface TransferHead {
  status: number;
  header(name: string): string | null;
}

/** How a body read ended. */
export interface StreamEnd {
  outcome: 'complete' | 'dropped' | 'too_large' | 'write_failed' | 'aborted';
  /** Bytes in the part file now, every one written and hashed. */
  received: number;
  message?: string;
}

type WorkerMessage =
  | { type: 'head'; status: number; headers: IncomingHttpHeaders }
  | { type: 'failed'; message: string }
  | { type: 'bytes'; received: number }
  | ({ type: 'ended' } & StreamEnd)
  | { type: 'digests'; sha256: string; other?: string; error?: string };

/**
 * The main thread's side of downloadWorker.mjs, one per download run: the worker sends GETs,
 * receives and appends to the part file through its descriptor, and its hasher hashes the part file
 * (sha256 and the candidate's algorithm, from its first byte); every decision (redirects, status,
 * range, size limit, checksum) stays here. One operation at a time.
 */
export class WorkerTransfer {
  private readonly worker: Worker;
  private onMessage: ((message: WorkerMessage) => void) | undefined;
  private broken: GatewayError | undefined;
  private onBroken: ((error: GatewayError) => void) | undefined;

  private readonly listeners = {
    message: (message: WorkerMessage) => this.onMessage?.(message),
    error: (error: Error) => this.fail(error.message),
    exit: (code: number) => this.fail(`exit code ${code}`),
  };

  constructor(otherAlgorithm: ChecksumAlgorithm | undefined) {
    const parked = warm.pop();
    parked?.unpark();
    this.worker = parked?.worker ?? startWorker();
    this.worker.on('message', this.listeners.message);
    this.worker.on('error', this.listeners.error);
    this.worker.on('exit', this.listeners.exit);
    this.worker.postMessage({ type: 'start', otherAlgorithm: otherAlgorithm === 'sha256' ? undefined : otherAlgorithm });
  }

  private fail(why: string): void {
    this.broken ??= new GatewayError('internal', `The download worker stopped (${why}); retry the download.`);
    this.onBroken?.(this.broken);
  }

  /** Starts the hashes over: the part file was truncated to 0. */
  reset(): void {
    this.worker.postMessage({ type: 'reset' });
  }

  /** One GET without following redirects; rejects with the transport's message when no head came. */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<TransferHead> {
    return this.operation<TransferHead>(signal, (message, resolve, reject) => {
      if (message.type === 'head') {
        const all = message.headers;
        resolve({
          status: message.status,
          header: (name) => {
            const value = all[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          },
        });
      } else if (message.type === 'failed') reject(new Error(message.message));
    }, () => this.worker.postMessage({ type: 'get', url: url.href, headers }));
  }

  /** Drops the current response (its socket is not reused). */
  discard(): void {
    this.worker.postMessage({ type: 'discard' });
  }

  /**
   * Has the worker append the current body to the part file (open descriptor `fd`, from offset
   * `received`); `onBytes` hears the bytes in the file so far. Resolves when the read ended.
   */
  stream(options: { fd: number; received: number; maxBytes: number }, signal: AbortSignal, onBytes: (received: number) => void): Promise<StreamEnd> {
    return this.operation<StreamEnd>(signal, (message, resolve) => {
      if (message.type === 'bytes') onBytes(message.received);
      else if (message.type === 'ended') resolve({ outcome: message.outcome, received: message.received, ...(message.message ? { message: message.message } : {}) });
    }, () => this.worker.postMessage({ type: 'stream', ...options }));
  }

  /** The hex digests of the part file's first `bytes` bytes (open descriptor `fd`): all of it, at the end of a run. */
  digests(fd: number, bytes: number): Promise<{ sha256: string; other?: string }> {
    return this.operation(undefined, (message, resolve, reject) => {
      if (message.type !== 'digests') return;
      if (message.error) reject(new GatewayError('internal', `${message.error} Retry the download.`));
      else resolve({ sha256: message.sha256, ...(message.other ? { other: message.other } : {}) });
    }, () => this.worker.postMessage({ type: 'digests', fd, bytes }));
  }

  /**
   * Ends this run's use of the worker: after a run that ended cleanly (every operation answered) it
   * is kept warm for the next download when none is, else terminated.
   */
  async close(reusable: boolean): Promise<void> {
    this.onBroken = undefined;
    const healthy = !this.broken;
    this.broken ??= new GatewayError('internal', 'The download worker was closed.');
    if (reusable && healthy && warm.length < MAX_WARM) {
      const worker = this.worker;
      worker.off('message', this.listeners.message);
      worker.off('error', this.listeners.error);
      worker.off('exit', this.listeners.exit);
      park(worker);
      return;
    }
    await this.worker.terminate();
  }

  /**
   * Runs one operation: `handle` sees the worker's messages until it settles. An abort is passed on
   * to the worker, which then ends the operation itself (a body read still hands over what it hashed).
   */
  private operation<T>(
    signal: AbortSignal | undefined,
    handle: (message: WorkerMessage, resolve: (value: T) => void, reject: (error: unknown) => void) => void,
    start: () => void,
  ): Promise<T> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => this.worker.postMessage({ type: 'abort' });
      const done = () => {
        this.onMessage = undefined;
        this.onBroken = undefined;
        signal?.removeEventListener('abort', onAbort);
      };
      this.onMessage = (message) =>
        handle(
          message,
          (value) => {
            done();
            resolve(value);
          },
          (error) => {
            done();
            reject(error);
          },
        );
      this.onBroken = (error) => {
        done();
        reject(error);
      };
      start();
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
