import type { RawPage, TextItem } from './pdfTextItems.js';

/** One visual line of a page: its text and where it sits (baseline y, points from the bottom). */
export interface LayoutLine {
  text: string;
  y: number;
  x: number;
}

/** Narrowest empty vertical strip, in points, that counts as the gutter between two columns. */
const MIN_GUTTER_PT = 6;
/** A space is inserted between two runs whose gap exceeds this fraction of the font size. */
const SPACE_GAP_EM = 0.15;
/** Share of a page's runs that may cross a gutter without closing it. */
const GUTTER_CROSSINGS = 0.03;

/**
 * A page's lines in reading order: a page with a gutter is read column by column (left column top to
 * bottom, then the right one), with full-width lines (titles, headers, wide figures' captions)
 * splitting the page into bands read in turn; other pages line by line from the top.
 */
export function layoutPage(page: RawPage): LayoutLine[] {
  // Whitespace runs carry no words, and pdf.js's inter-column spaces would bridge the gutter.
  const items = page.items.filter((i) => i.str.trim().length > 0);
  const gutter = findGutter(items, page.width);
  if (!gutter) return groupLines(items);
  const bands: TextItem[][][] = [];
  let band: TextItem[][] = [[], []];
  for (const item of [...items].sort((a, b) => b.y - a.y)) {
    const end = item.x + item.width;
    const spans = item.x < gutter.end && end > gutter.start;
    if (spans) {
      bands.push(band, [[item], []]);
      band = [[], []];
    } else band[item.x + item.width / 2 < gutter.start ? 0 : 1]!.push(item);
  }
  bands.push(band);
  return bands.flatMap(([left, right]) => [...groupLines(left!), ...groupLines(right!)]);
}

interface Gutter {
  start: number;
  end: number;
}

/**
 * The widest empty vertical strip in the middle third of the text's horizontal extent, when text lies
 * on both sides of it for a good part of the page. Items wider than half the text extent (full-width
 * titles) do not block a gutter; they become bands of their own.
 */
export function findGutter(items: TextItem[], pageWidth: number): Gutter | undefined {
  if (items.length < 4) return undefined;
  const left = Math.max(0, Math.min(...items.map((i) => i.x)));
  const right = Math.min(pageWidth, Math.max(...items.map((i) => i.x + i.width)));
  const extent = right - left;
  if (extent <= 0) return undefined;
  const counts = new Uint32Array(Math.ceil(extent) + 1);
  for (const item of items) {
    if (item.width > extent / 2) continue;
    const from = Math.max(0, Math.floor(item.x - left));
    const to = Math.min(counts.length - 1, Math.ceil(item.x + item.width - left));
    for (let i = from; i <= to; i += 1) counts[i]! += 1;
  }
  // A centred page number or a stray label may sit in the gutter; a few crossings still leave it one.
  const tolerance = Math.floor(items.length * GUTTER_CROSSINGS);
  const covered = counts.map((c) => (c > tolerance ? 1 : 0));
  let best: Gutter | undefined;
  const lo = Math.floor(extent / 3);
  const hi = Math.ceil((2 * extent) / 3);
  for (let i = lo; i <= hi; i += 1) {
    if (covered[i]) continue;
    let j = i;
    while (j + 1 < covered.length && !covered[j + 1]) j += 1;
    let k = i;
    while (k - 1 >= 0 && !covered[k - 1]) k -= 1;
    if (!best || j - k > best.end - best.start) best = { start: left + k, end: left + j + 1 };
    i = j;
  }
  if (!best || best.end - best.start < MIN_GUTTER_PT) return undefined;
  return twoSided(items, best) ? best : undefined;
}

/** Enough lines on each side of the strip: a ragged single column must not be split. */
function twoSided(items: TextItem[], gutter: Gutter): boolean {
  const leftLines = new Set(items.filter((i) => i.x + i.width <= gutter.start).map((i) => Math.round(i.y)));
  const rightLines = new Set(items.filter((i) => i.x >= gutter.end).map((i) => Math.round(i.y)));
  return leftLines.size >= 2 && rightLines.size >= 2;
}

/** Items on one baseline (within 40 % of the font size) form a line; lines run top to bottom. */
export function groupLines(items: TextItem[]): LayoutLine[] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: TextItem[][] = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(first.y - item.y) <= 0.4 * Math.max(1, Math.min(first.fontSize, item.fontSize))) line.push(item);
    else lines.push([item]);
  }
  return lines
    .map((line) => line.sort((a, b) => a.x - b.x))
    .map((line) => ({ text: joinRuns(line), y: line[0]!.y, x: line[0]!.x }))
    .filter((line) => line.text.trim().length > 0);
}

/** Joins a line's runs: a space where the gap says a word ended, none where glyphs were placed one by one. */
export function joinRuns(runs: TextItem[]): string {
  let text = '';
  let end: number | undefined;
  for (const run of runs) {
    const gap = end === undefined ? 0 : run.x - end;
    const needsSpace = end !== undefined && gap > SPACE_GAP_EM * run.fontSize && !/\s$/.test(text) && !/^\s/.test(run.str);
    text += (needsSpace ? ' ' : '') + run.str;
    end = Math.max(end ?? -Infinity, run.x + run.width);
  }
  return text.replace(/\s+/g, ' ').trim();
}
