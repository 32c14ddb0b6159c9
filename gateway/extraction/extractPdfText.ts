import { createRequire } from 'node:module';
import { GatewayError, sha256Hex, type Clock } from '../core/index.js';
import { buildExtraction, type BuiltExtraction } from './buildExtraction.js';
import type { ExtractionLimits } from './extractionLimits.js';
import type { PdfWorkers } from './pdfWorkers.js';
import { runPdfWorker } from './runPdfWorker.js';
import { hasEofMarker, isPdfMagic } from './sniffPdf.js';

const PDFJS_VERSION = (createRequire(import.meta.url)('pdfjs-dist/package.json') as { version: string }).version;

export interface ExtractPdfTextOptions {
  bytes: Uint8Array;
  limits: ExtractionLimits;
  clock: Clock;
  /** Told after each page is read (1-based page, page count). */
  onPage?: (page: number, pageCount: number) => void;
  signal?: AbortSignal;
  /** Warm workers to take one from; default: a new worker per call. */
  workers?: PdfWorkers;
}

/** A PDF's readable text and manifest, or a GatewayError that says what is wrong with the file. */
export interface PdfExtraction extends BuiltExtraction {
  sha256: string;
}

/**
 * Checks the bytes (size, `%PDF-` magic, `%%EOF` marker), reads them in the limited worker and turns
 * the text items into readable text. Fails with `request_too_large`, `unsupported_media_type`,
 * `pdf_corrupt`, `pdf_encrypted`, `pdf_too_many_pages`, `extraction_limit` or `cancelled`.
 */
export async function extractPdfText(options: ExtractPdfTextOptions): Promise<PdfExtraction> {
  const { bytes, limits } = options;
  if (bytes.length > limits.maxBytes) {
    throw new GatewayError('request_too_large', `This PDF is ${bytes.length} bytes, more than the ${limits.maxBytes} allowed for extraction; ask the operator to raise maxBytes.`, {
      details: { sizeBytes: bytes.length, maxBytes: limits.maxBytes },
    });
  }
  if (!isPdfMagic(bytes)) {
    throw new GatewayError('unsupported_media_type', 'This file is not a PDF (it does not start with %PDF-), whatever its name says; pass a PDF file.');
  }
  if (!hasEofMarker(bytes)) {
    throw new GatewayError('pdf_corrupt', 'This PDF is truncated (it has no %%EOF marker at its end); download it again or upload an intact copy.', {
      details: { reason: 'truncated' },
    });
  }
  const sha256 = sha256Hex(bytes);
  const doc = await runPdfWorker(options);
  return { sha256, ...buildExtraction(doc, { sha256, sizeBytes: bytes.length, pdfjsVersion: PDFJS_VERSION }) };
}
