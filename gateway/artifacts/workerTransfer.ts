import { Worker } from 'node:worker_threads';
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../core/index.js';
import type { ChecksumAlgorithm } from './fileHashes.js';

const WORKER_URL = new URL('./downloadWorker.mjs', import.meta.url);
/** The worker only moves bytes: a small heap keeps its collections short. */
const WORKER_HEAP_MB = 32;
/** A small young generation keeps the worker's resident memory (and each scavenge) small. */
const WORKER_YOUNG_MB = 8;

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
  | { type: 'digests'; sha256: string; other?: string };

/**
 * The main thread's side of downloadWorker.mjs, one per download run: the worker sends GETs,
 * receives, appends to the part file through its descriptor and hashes (sha256 and the candidate's
 * algorithm, from the first byte of the part file); every decision (redirects, status, range, size
 * limit, checksum) stays here. One operation at a time.
 */
export class WorkerTransfer {
  private readonly worker: Worker;
  private onMessage: ((message: WorkerMessage) => void) | undefined;
  private broken: GatewayError | undefined;
  private onBroken: ((error: GatewayError) => void) | undefined;

  constructor(otherAlgorithm: ChecksumAlgorithm | undefined) {
    this.worker = new Worker(WORKER_URL, {
      workerData: { otherAlgorithm: otherAlgorithm === 'sha256' ? undefined : otherAlgorithm, },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    this.worker.on('message', (message: WorkerMessage) => this.onMessage?.(message));
    const fail = (why: string) => {
      this.broken ??= new GatewayError('internal', `The download worker stopped (${why}); retry the download.`);
      this.onBroken?.(this.broken);
    };
    this.worker.on('error', (error) => fail(error.message));
    this.worker.on('exit', (code) => fail(`exit code ${code}`));
  }

  /** Hashes bytes already in the part file (a resume continues their hash). */
  hashExisting(chunk: Uint8Array): void {
    this.worker.postMessage({ type: 'hash', chunk });
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

  /** The hex digests of every byte hashed since the last reset. */
  digests(): Promise<{ sha256: string; other?: string }> {
    return this.operation(undefined, (message, resolve) => {
      if (message.type === 'digests') resolve({ sha256: message.sha256, ...(message.other ? { other: message.other } : {}) });
    }, () => this.worker.postMessage({ type: 'digests' }));
  }

  async close(): Promise<void> {
    this.onBroken = undefined;
    this.broken ??= new GatewayError('internal', 'The download worker was closed.');
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
