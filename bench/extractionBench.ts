/**
 * The extraction part of `npm run bench`: pages/s of paper_extract_pdf's extractor (pdf.js in a
 * limited worker, reading order, headers dropped) against poppler's `pdftotext -layout` on the same
 * generated 50-page two-column PDF, and the word-level agreement (token-overlap F1) of the two texts.
 * Also runs alone: `node dist/bench/extractionBench.js` prints its section.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { systemClock } from '../gateway/core/index.js';
import { createPdfWorkers, extractPdfText, resolveExtractionLimits } from '../gateway/extraction/index.js';
import { twoColumnPdf } from '../test/fixtures/pdfs.js';
import { median, round } from './stats.js';

const PAGES = 50;
const RUNS = 3;
const run = promisify(execFile);

/** Lower-case words and numbers: what both extractors should agree on, whatever their layout. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Bag-of-words F1 of `candidate` against `reference`. */
export function tokenF1(candidate: string[], reference: string[]): number {
  const counts = new Map<string, number>();
  for (const t of reference) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of candidate) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      overlap += 1;
      counts.set(t, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / candidate.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export interface ExtractionBenchResult {
  pages: number;
  /** One extraction in a new worker: thread start, pdf.js load and unoptimized code. */
  coldMs: number;
  scigateMs: number;
  pdftotextMs: number;
  f1: number;
  f1WithoutRunningLines: number;
}

/**
 * What to install when the reference extractor is missing (undefined when it runs): checked before
 * the bench starts its long first part, so a machine without it hears so at once.
 */
export async function pdftotextMissing(): Promise<string | undefined> {
  try {
    await run('pdftotext', ['-v']);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return (
      "npm run bench compares PDF extraction with poppler's pdftotext, which is not installed here. Install it " +
      '(Debian/Ubuntu: sudo apt-get install poppler-utils), or run `npm run bench -- --gateway-only` for the gateway section alone.\n'
    );
  }
}

/** Measures both extractors on the same file, medians of `RUNS`. */
export async function runExtractionBench(): Promise<ExtractionBenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-extraction-bench-'));
  try {
    const bytes = await twoColumnPdf({ pages: PAGES });
    const pdfPath = join(dir, 'paper.pdf');
    await writeFile(pdfPath, bytes);
    const limits = resolveExtractionLimits();
    const cold = await timed(() => extractPdfText({ bytes, limits, clock: systemClock }));
    // The gateway keeps extraction workers warm (createPdfWorkers); one untimed run warms each side.
    const workers = createPdfWorkers({ maxHeapMb: limits.maxHeapMb, maxIdle: 1 });
    await extractPdfText({ bytes, limits, clock: systemClock, workers });
    await run('pdftotext', ['-layout', '-enc', 'UTF-8', pdfPath, join(dir, 'poppler.txt')]);
    const ours: number[] = [];
    const theirs: number[] = [];
    let ourText = '';
    let popplerText = '';
    for (let i = 0; i < RUNS; i += 1) {
      const a = await timed(() => extractPdfText({ bytes, limits, clock: systemClock, workers }));
      ours.push(a.ms);
      ourText = a.value.text;
      const b = await timed(() => run('pdftotext', ['-layout', '-enc', 'UTF-8', pdfPath, join(dir, 'poppler.txt')]));
      theirs.push(b.ms);
      popplerText = await readFile(join(dir, 'poppler.txt'), 'utf8');
    }
    await workers.close();
    // The reference keeps running headers and page numbers, which scigate drops on purpose.
    const popplerBody = popplerText.replace(/Journal of Test Results · Vol\. 7/g, '').replace(/^\s*\d+\s*$/gm, '');
    return {
      pages: PAGES,
      coldMs: cold.ms,
      scigateMs: median(ours),
      pdftotextMs: median(theirs),
      f1: tokenF1(tokens(ourText), tokens(popplerText)),
      f1WithoutRunningLines: tokenF1(tokens(ourText), tokens(popplerBody)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The docs/benchmarks.md section. */
export async function extractionBenchSection(): Promise<string> {
  const r = await runExtractionBench();
  const ourRate = r.pages / (r.scigateMs / 1000);
  const popplerRate = r.pages / (r.pdftotextMs / 1000);
  const speed = round(ourRate / popplerRate);
  const check = (ok: boolean) => (ok ? 'met' : '**missed**');
  return `
## PDF extraction (paper_extract_pdf's extractor vs \`pdftotext -layout\`)

The same generated ${r.pages}-page two-column PDF (test/fixtures/pdfs.ts), medians of ${RUNS} runs after one
untimed run each. scigate's time is the whole extraction (sniff, sha256, a warm heap-limited worker
running pdf.js, reading order, header removal, manifest); pdftotext's includes starting its process.

| | pages/s | ms for ${r.pages} pages |
|---|---|---|
| scigate, warm worker (the gateway keeps up to 2 idle) | ${round(ourRate, 1)} | ${round(r.scigateMs, 0)} |
| scigate, cold: a new worker loads pdf.js first (first extraction after start-up) | ${round(r.pages / (r.coldMs / 1000), 1)} | ${round(r.coldMs, 0)} |
| poppler \`pdftotext -layout\` | ${round(popplerRate, 1)} | ${round(r.pdftotextMs, 0)} |

| target | value | |
|---|---|---|
| pages/s ≥ 0.5 × pdftotext | ${speed} × | ${check(speed >= 0.5)} |
| token-overlap F1 against pdftotext's text ≥ 0.97 | ${round(r.f1, 4)} | ${check(r.f1 >= 0.97)} |
| the same F1 with pdftotext's running header and page numbers removed | ${round(r.f1WithoutRunningLines, 4)} | |
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(await extractionBenchSection());
