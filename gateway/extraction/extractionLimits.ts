import { GatewayError } from '../core/index.js';

/** How much one PDF extraction may take; every field has a documented default. */
export interface ExtractionLimits {
  /** Largest PDF accepted, in bytes. Default 64 MiB. */
  maxBytes: number;
  /** Most pages extracted; a longer PDF fails with `pdf_too_many_pages`. Default 2,000. */
  maxPages: number;
  /** Memory one extraction may hold, in MiB: the worker's V8 heap and the buffers pdf.js decodes into; exceeding it fails with `extraction_limit`. Default 256. */
  maxHeapMb: number;
  /** Wall-clock time for one extraction, in ms; exceeding it fails with `extraction_limit`. Default 120,000. */
  timeoutMs: number;
}

export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxPages: 2000,
  maxHeapMb: 256,
  timeoutMs: 120_000,
});

/** The defaults with `overrides` applied; each must be a positive integer (the message names the field). */
export function resolveExtractionLimits(overrides: Partial<ExtractionLimits> = {}): ExtractionLimits {
  const limits = { ...DEFAULT_EXTRACTION_LIMITS, ...overrides };
  for (const [field, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new GatewayError('invalid_input', `Extraction limit ${field} must be a positive integer; got ${String(value)}.`);
    }
  }
  return limits;
}
