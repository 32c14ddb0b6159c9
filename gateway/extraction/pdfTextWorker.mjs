// The one place pdf.js runs: a worker_thread with its own heap limit, so a hostile PDF can exhaust
// only this isolate, and the gateway terminates it when the wall-clock limit passes. Plain JavaScript
// because Node 20 runs worker files without a TypeScript loader; everything after the text items
// (reading order, headers, manifest) is typed code in the main thread.
//
// In (one message per job, jobs one after another):
//   { bytes: Uint8Array, maxPages: number, maxMemoryMb: number, standardFontDataUrl: string, cMapUrl: string }
// Out (postMessage), per job, in this order:
//   { type: 'opened', pageCount, info, xmp }           – or { type: 'failed', kind, message }
//                                                          (kind: encrypted, corrupt, too_many_pages, heap_limit)
//   { type: 'page', page, width, height, items, fonts }  – one per page; items are
//                                                          [str, x, y, width, fontSize, fontIndex]
//   { type: 'done' }
// A worker that failed a job is terminated, never given another one.
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Loaded up front, while the worker waits for its first job, instead of by pdf.js on the first document.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

globalThis.pdfjsWorker = pdfjsWorker;

/** pdf.js exception name → the failure kind the gateway maps to an error code. */
function failureKind(error) {
  return error?.name === 'PasswordException' ? 'encrypted' : 'corrupt';
}

function post(message) {
  parentPort.postMessage(message);
}

/**
 * Share of the heap limit past which a page's text is abandoned. pdf.js builds a page's text in
 * chunks; near the limit V8 would spend seconds in last-resort collections before the worker dies,
 * so a page that takes this much is stopped here at once, as if the limit had been hit.
 */
const HEAP_STOP_SHARE = 0.7;

/** A page's text items as compact tuples (the structured clone of a 1,000-page paper stays small), read chunk by chunk. */
async function pageText(page) {
  const items = [];
  const fonts = [];
  const styles = {};
  const limit = getHeapStatistics().heap_size_limit * HEAP_STOP_SHARE;
  const reader = page.streamTextContent().getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    Object.assign(styles, value.styles);
    for (const item of value.items) {
      if (typeof item.str !== 'string' || item.str.length === 0) continue;
      const [a, b, , , x, y] = item.transform;
      const fontSize = Math.hypot(a, b) || item.height || 1;
      let fontIndex = fonts.indexOf(item.fontName);
      if (fontIndex < 0) fontIndex = fonts.push(item.fontName) - 1;
      items.push([item.str, x, y, item.width, fontSize, fontIndex]);
    }
    if (getHeapStatistics().used_heap_size > limit) {
      // The worker is terminated after this job; the cancel only stops pdf.js reading on meanwhile.
      reader.cancel(new Error('page text past the heap limit')).catch(() => {});
      return undefined;
    }
  }
  return { items, fonts, styles };
}

/** The document information dictionary as plain strings (pdf.js may hand back Name objects). */
function plainInfo(info) {
  const out = {};
  for (const key of ['Title', 'Author', 'Subject', 'Keywords', 'CreationDate', 'doi', 'DOI']) {
    const value = info?.[key];
    if (typeof value === 'string' && value.trim()) out[key] = value;
  }
  return out;
}

/** How often a running job's memory is looked at; pdf.js yields to the event loop while it decodes. */
const MEMORY_CHECK_MS = 100;

/**
 * Fails the job (heap_limit) once this isolate holds more than `maxMemoryMb`: its heap, and the
 * buffers pdf.js decodes streams into, which live outside the heap and its V8 limit (a 2 MB PDF
 * whose content stream inflates to 2 GiB of spaces held 4 GB otherwise).
 */
function watchMemory(maxMemoryMb, fail) {
  const limit = maxMemoryMb * 1024 * 1024;
  const timer = setInterval(() => {
    const { heapUsed, external } = process.memoryUsage();
    if (heapUsed + external > limit) {
      clearInterval(timer);
      fail();
    }
  }, MEMORY_CHECK_MS);
  return () => clearInterval(timer);
}

async function extract(job) {
  const { bytes, maxPages, maxMemoryMb, standardFontDataUrl, cMapUrl } = job;
  // The gateway terminates a worker that failed a job, so pdf.js stops with it.
  const stopWatching = watchMemory(maxMemoryMb, () => post({ type: 'failed', kind: 'heap_limit', message: 'memory past the limit' }));
  try {
    await extractWatched(bytes, maxPages, standardFontDataUrl, cMapUrl);
  } finally {
    stopWatching();
  }
}

async function extractWatched(bytes, maxPages, standardFontDataUrl, cMapUrl) {
  let pdf;
  try {
    pdf = await getDocument({
      data: bytes, standardFontDataUrl, cMapUrl, cMapPacked: true, isEvalSupported: false, disableFontFace: true,
      useSystemFonts: false, stopAtErrors: false, verbosity: 0,
    }).promise;
  } catch (error) {
    post({ type: 'failed', kind: failureKind(error), message: String(error?.message ?? error) });
    return;
  }
  if (pdf.numPages > maxPages) {
    post({ type: 'failed', kind: 'too_many_pages', message: `${pdf.numPages} pages`, pageCount: pdf.numPages });
    return;
  }
  const meta = await pdf.getMetadata().catch(() => ({ info: {}, metadata: null }));
  post({ type: 'opened', pageCount: pdf.numPages, info: plainInfo(meta.info), xmp: meta.metadata?.getRaw?.() ?? null });
  for (let n = 1; n <= pdf.numPages; n += 1) {
    try {
      const page = await pdf.getPage(n);
      const [x0, y0, x1, y1] = page.view;
      const text = await pageText(page);
      if (!text) {
        post({ type: 'failed', kind: 'heap_limit', message: `page ${n}` });
        return;
      }
      const { items, fonts, styles } = text;
      // pdf.js names fonts by load order (g_d0_f1); the family makes a warning readable.
      const fontNames = fonts.map((id) => `${styles[id]?.fontFamily ?? 'font'} ${id}`);
      post({ type: 'page', page: n, width: x1 - x0, height: y1 - y0, originX: x0, originY: y0, items, fonts: fontNames });
      page.cleanup();
    } catch (error) {
      post({ type: 'failed', kind: failureKind(error), message: `page ${n}: ${String(error?.message ?? error)}` });
      return;
    }
  }
  await pdf.destroy();
  post({ type: 'done' });
}

parentPort.on('message', (job) => {
  extract(job).catch((error) => post({ type: 'failed', kind: 'corrupt', message: String(error?.message ?? error) }));
});
