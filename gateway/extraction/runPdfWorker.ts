import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { GatewayError, type Clock } from '../core/index.js';
import type { ExtractionLimits } from './extractionLimits.js';
import type { PdfInfo, RawDocument, RawPage } from './pdfTextItems.js';
import { freshPdfWorkers, type PdfWorkers } from './pdfWorkers.js';

const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'));
/** pdf.js reads the standard fonts' metrics and the CMaps from these directories (a trailing slash matters). */
const STANDARD_FONTS = `${join(PDFJS_DIR, '../../standard_fonts')}/`;
const CMAPS = `${join(PDFJS_DIR, '../../cmaps')}/`;

type ItemTuple = [string, number, number, number, number, number];
type WorkerMessage =
  | { type: 'opened'; pageCount: number; info: PdfInfo; xmp: string | null }
  | { type: 'page'; page: number; width: number; height: number; items: ItemTuple[]; fonts: string[] }
  | { type: 'failed'; kind: 'encrypted' | 'corrupt' | 'too_many_pages' | 'heap_limit'; message: string; pageCount?: number }
  | { type: 'done' };

export interface RunPdfWorkerOptions {
  bytes: Uint8Array;
  limits: ExtractionLimits;
  clock: Clock;
  /** Told after each page is read (1-based page, page count). */
  onPage?: (page: number, pageCount: number) => void;
  signal?: AbortSignal;
  /** Where the worker comes from (a warm spare); default: a new worker per call. */
  workers?: PdfWorkers;
}

/**
 * Reads a PDF's text items in a worker_thread with a heap limit and a wall-clock limit. Either limit
 * terminates the worker and rejects with `extraction_limit`; a damaged, encrypted or too long PDF
 * rejects with its own code. The caller's bytes are copied, never transferred away.
 */
export function runPdfWorker(options: RunPdfWorkerOptions): Promise<RawDocument> {
  const { limits, clock, signal } = options;
  if (signal?.aborted) return Promise.reject(new GatewayError('cancelled', 'The extraction was cancelled before it started.'));
  const workers = options.workers ?? freshPdfWorkers;
  // A copy of its own to transfer: a Buffer's slice() is a view of the caller's memory (or of
  // Node's shared pool), which the transfer would detach.
  const bytes = new Uint8Array(options.bytes);
  const worker = workers.take(limits.maxHeapMb);
  const timer = new AbortController();
  return new Promise<RawDocument>((resolve, reject) => {
    const doc: RawDocument = { pageCount: 0, info: {}, xmp: null, pages: [] };
    let settled = false;
    const finish = (error: GatewayError | undefined) => {
      if (settled) return;
      settled = true;
      timer.abort();
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      // Only a worker whose job ended cleanly goes back warm; any other is terminated.
      workers.release(worker, error === undefined);
      if (error) reject(error);
      else resolve(doc);
    };
    const onAbort = () => finish(new GatewayError('cancelled', 'The extraction was cancelled; its worker was stopped.'));
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'opened') Object.assign(doc, { pageCount: message.pageCount, info: message.info, xmp: message.xmp });
      else if (message.type === 'page') {
        doc.pages.push(toRawPage(message));
        options.onPage?.(message.page, doc.pageCount);
      } else if (message.type === 'failed') finish(failureError(message, limits));
      else finish(undefined);
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(heapLimitError(limits));
      else finish(new GatewayError('internal', 'The PDF worker failed unexpectedly; see the gateway log.', { cause: error }));
    };
    const onExit = () => finish(new GatewayError('internal', 'The PDF worker stopped before it finished; see the gateway log.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    clock.sleep(limits.timeoutMs, timer.signal).then(
      () => finish(limitError('timeoutMs', `took longer than ${limits.timeoutMs} ms`)),
      () => undefined,
    );
    worker.postMessage({ bytes, maxPages: limits.maxPages, maxMemoryMb: limits.maxHeapMb, standardFontDataUrl: STANDARD_FONTS, cMapUrl: CMAPS }, [bytes.buffer as ArrayBuffer]);
  });
}

function toRawPage(message: Extract<WorkerMessage, { type: 'page' }>): RawPage {
  const items = message.items.map(([str, x, y, width, fontSize, font]) => ({ str, x, y, width, fontSize, font }));
  return { page: message.page, width: message.width, height: message.height, items, fonts: message.fonts };
}

function limitError(limit: keyof ExtractionLimits, what: string): GatewayError {
  return new GatewayError('extraction_limit', `Extracting this PDF ${what}, so it was stopped. Try a smaller PDF, or ask the operator to raise the extraction ${limit} limit.`, {
    details: { limit },
  });
}

/** The worker ran out of heap, or stopped a page that was about to (pdfTextWorker.mjs, HEAP_STOP_SHARE). */
function heapLimitError(limits: ExtractionLimits): GatewayError {
  return limitError('maxHeapMb', `needed more than ${limits.maxHeapMb} MiB of memory`);
}

function failureError(message: Extract<WorkerMessage, { type: 'failed' }>, limits: ExtractionLimits): GatewayError {
  if (message.kind === 'heap_limit') return heapLimitError(limits);
  if (message.kind === 'encrypted') {
    return new GatewayError('pdf_encrypted', 'This PDF is encrypted and needs a password; upload an unencrypted copy to extract its text.');
  }
  if (message.kind === 'too_many_pages') {
    return new GatewayError('pdf_too_many_pages', `This PDF has ${message.pageCount} pages, more than the ${limits.maxPages} allowed; split it or ask the operator to raise maxPages.`, {
      details: { pageCount: message.pageCount, maxPages: limits.maxPages },
    });
  }
  return new GatewayError('pdf_corrupt', 'This PDF is damaged or truncated and its text cannot be read; download it again or upload an intact copy.', {
    details: { reason: message.message.slice(0, 200) },
  });
}
