import { layoutPage } from './pageLayout.js';
import { paperMetadata, type PaperMetadata } from './paperMetadata.js';
import type { RawDocument, RawPage } from './pdfTextItems.js';
import { joinLines, looksUnmapped, normalizeText } from './readableText.js';
import { dropRunningLines } from './runningLines.js';

/** Something a reader of the text should know: pages without text, fonts whose glyphs map to no letters. */
export interface ExtractionWarning {
  code: 'scanned_page' | 'font_without_unicode' | 'running_lines_dropped';
  message: string;
  pages: number[];
  fonts?: string[];
}

/** One page's place in the `.txt`: [startOffset, endOffset) in Unicode code points. */
export interface PageOffsets {
  page: number;
  startOffset: number;
  endOffset: number;
}

/** The `<name>.manifest.json` written beside `<name>.txt`. */
export interface ExtractionManifest {
  formatVersion: 1;
  source: { sha256: string; sizeBytes: number };
  pageCount: number;
  /** Code points in the `.txt`, form feeds included. */
  characterCount: number;
  /** Pages are separated by one form feed (U+000C); offsets exclude it. */
  pages: PageOffsets[];
  metadata: PaperMetadata;
  warnings: ExtractionWarning[];
  extractor: { name: 'pdfjs-dist'; version: string };
}

export interface BuiltExtraction {
  text: string;
  manifest: ExtractionManifest;
}

const codePoints = (s: string) => [...s].length;

/** A PDF's text items → the readable `.txt` (form-feed page breaks) and its manifest. Pure. */
export function buildExtraction(doc: RawDocument, source: { sha256: string; sizeBytes: number; pdfjsVersion: string }): BuiltExtraction {
  const laidOut = doc.pages.map(layoutPage);
  const { pages: kept, dropped, pagesWithDrops } = dropRunningLines(laidOut);
  const pageTexts = kept.map((lines) => normalizeText(joinLines(lines.map((l) => l.text))));
  const pages: PageOffsets[] = [];
  let offset = 0;
  pageTexts.forEach((text, i) => {
    const length = codePoints(text);
    pages.push({ page: doc.pages[i]!.page, startOffset: offset, endOffset: offset + length });
    offset += length + 1;
  });
  const text = pageTexts.join('\f');
  const warnings = pageWarnings(doc.pages);
  if (dropped > 0) {
    warnings.push({ code: 'running_lines_dropped', message: `${dropped} running header, footer or page-number lines were left out.`, pages: pagesWithDrops.map((i) => doc.pages[i]!.page) });
  }
  return {
    text,
    manifest: {
      formatVersion: 1,
      source: { sha256: source.sha256, sizeBytes: source.sizeBytes },
      pageCount: doc.pageCount,
      characterCount: codePoints(text),
      pages,
      metadata: paperMetadata(doc.info, doc.xmp, pageTexts[0] ?? ''),
      warnings,
      extractor: { name: 'pdfjs-dist', version: source.pdfjsVersion },
    },
  };
}

/** Scanned pages (no text at all) and fonts that yield private-use or replacement characters. */
export function pageWarnings(pages: RawPage[]): ExtractionWarning[] {
  const warnings: ExtractionWarning[] = [];
  const blank = pages.filter((p) => !p.items.some((i) => i.str.trim())).map((p) => p.page);
  if (blank.length > 0) {
    warnings.push({ code: 'scanned_page', message: `Page(s) ${blank.join(', ')} have no text: scanned page, no OCR.`, pages: blank });
  }
  const unmappedPages: number[] = [];
  const fonts = new Set<string>();
  for (const page of pages) {
    const bad = page.items.filter((i) => looksUnmapped(i.str));
    if (bad.length === 0) continue;
    unmappedPages.push(page.page);
    for (const item of bad) fonts.add(page.fonts[item.font] ?? 'unknown font');
  }
  if (unmappedPages.length > 0) {
    warnings.push({
      code: 'font_without_unicode',
      message: `Some fonts have no Unicode map; their text on page(s) ${unmappedPages.join(', ')} may be garbled.`,
      pages: unmappedPages,
      fonts: [...fonts],
    });
  }
  return warnings;
}
