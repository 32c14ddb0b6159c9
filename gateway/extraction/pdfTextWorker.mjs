// The one place pdf.js runs: a worker_thread with its own heap limit, so a hostile PDF can exhaust
// only this isolate, and the gateway terminates it when the wall-clock limit passes. Plain JavaScript
// because Node 20 runs worker files without a TypeScript loader; everything after the text items
// (reading order, headers, manifest) is typed code in the main thread.
//
// In (one message per job, jobs one after another):
//   { bytes: Uint8Array, maxPages: number, standardFontDataUrl: string, cMapUrl: string }
// Out (postMessage), per job, in this order:
//   { type: 'opened', pageCount, info, xmp }           – or { type: 'failed', kind, message }
//   { type: 'page', page, width, height, items, fonts }  – one per page; items are
//                                                          [str, x, y, width, fontSize, fontIndex]
//   { type: 'done' }
// A worker that failed a job is terminated, never given another one.
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

/** Text items as compact tuples: the structured clone of a 1,000-page paper stays small. */
function compactItems(content, fonts) {
  const items = [];
  for (const item of content.items) {
    if (typeof item.str !== 'string' || item.str.length === 0) continue;
    const [a, b, , , x, y] = item.transform;
    const fontSize = Math.hypot(a, b) || item.height || 1;
    let fontIndex = fonts.indexOf(item.fontName);
    if (fontIndex < 0) fontIndex = fonts.push(item.fontName) - 1;
    items.push([item.str, x, y, item.width, fontSize, fontIndex]);
  }
  return items;
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

async function extract(job) {
  const { bytes, maxPages, standardFontDataUrl, cMapUrl } = job;
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
      const content = await page.getTextContent();
      const fonts = [];
      const items = compactItems(content, fonts);
      // pdf.js names fonts by load order (g_d0_f1); the family makes a warning readable.
      const fontNames = fonts.map((id) => `${content.styles[id]?.fontFamily ?? 'font'} ${id}`);
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
