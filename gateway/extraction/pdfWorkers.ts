import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./pdfTextWorker.mjs', import.meta.url);

/** Where extraction workers come from and go back to. */
export interface PdfWorkers {
  /** A worker with this heap limit: an idle one when the limit matches, else a new one. */
  take(maxHeapMb: number): Worker;
  /**
   * Gives a worker back: kept warm for the next PDF when its job finished cleanly (`reusable`) and
   * there is room, terminated otherwise. A worker that failed or hit a limit is never reused.
   */
  release(worker: Worker, reusable: boolean): void;
  /** Terminates the idle workers; later releases terminate theirs. */
  close(): Promise<void>;
}

/** A new worker whose V8 heap is capped at `maxHeapMb` MiB; its stdout and stderr are swallowed. */
export function startPdfWorker(maxHeapMb: number): Worker {
  const worker = new Worker(WORKER_URL, {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.ceil(maxHeapMb / 4)) },
    // pdf.js may warn on stdout, and stdout is the stdio protocol channel.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

/** No pool: a new worker per PDF, terminated after it. The slow, cold path (pdf.js loads and JITs every time). */
export const freshPdfWorkers: PdfWorkers = {
  take: startPdfWorker,
  release: (worker) => void worker.terminate(),
  close: async () => {},
};

/**
 * Keeps up to `maxIdle` workers warm after their first PDF (pdf.js loaded and its code optimized): a
 * cold worker spends seconds before its first page, a warm one none. `prestart` starts one ahead of
 * the first PDF (off by default: a gateway that never extracts should not load pdf.js). Each
 * worker is heap-limited for its whole life, and one that failed a job is terminated, so a hostile
 * PDF still costs only its own worker. Idle workers do not keep the process alive.
 */
export function createPdfWorkers(options: { maxHeapMb: number; maxIdle?: number; prestart?: boolean }): PdfWorkers {
  const maxIdle = options.maxIdle ?? 2;
  const idle: Worker[] = [];
  let closed = false;
  const park = (worker: Worker) => {
    worker.unref();
    worker.once('exit', () => {
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
    });
    idle.push(worker);
  };
  if (options.prestart) park(startPdfWorker(options.maxHeapMb));
  return {
    take(maxHeapMb) {
      const worker = maxHeapMb === options.maxHeapMb ? idle.pop() : undefined;
      if (!worker) return startPdfWorker(maxHeapMb);
      worker.removeAllListeners('exit');
      worker.ref();
      return worker;
    },
    release(worker, reusable) {
      if (reusable && !closed && idle.length < maxIdle && worker.resourceLimits?.maxOldGenerationSizeMb === options.maxHeapMb) park(worker);
      else void worker.terminate();
    },
    async close() {
      closed = true;
      await Promise.all(idle.splice(0).map((w) => w.terminate()));
    },
  };
}
