import type { LayoutLine } from './pageLayout.js';

/** How many distinct baselines at the top and at the bottom of a page may hold a header or footer. */
const EDGE_BASELINES = 2;
/** A line counts as running when it recurs on at least this share of the pages (and on two at least). */
const RECURRING_SHARE = 0.5;

/** "12", "- 12 -", "Page 12", "12 of 40", "xii": a line that is only a page number. */
const PAGE_NUMBER = /^(page\s+)?[-–—(]?\s*(\d{1,5}|[ivxlcdm]{1,8})\s*[-–—)]?(\s*(of|\/)\s*\d{1,5})?$/i;

/** A line's identity across pages: digits folded, so "Vol. 7 · page 3" and "… page 4" match. */
function runningKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** The lines on a page's top or bottom `EDGE_BASELINES` baselines. */
function edgeLines(lines: LayoutLine[]): Set<LayoutLine> {
  const baselines = [...new Set(lines.map((l) => Math.round(l.y)))].sort((a, b) => b - a);
  const edge = new Set([...baselines.slice(0, EDGE_BASELINES), ...baselines.slice(-EDGE_BASELINES)]);
  return new Set(lines.filter((l) => edge.has(Math.round(l.y))));
}

/**
 * Drops running headers and footers — edge lines whose digit-folded text recurs on at least half the
 * pages — and lone page numbers at a page's edge, unless that would leave a page with no text (its
 * one recurring line is then its body, e.g. a slide title). Resolves with the kept lines per page,
 * how many lines were dropped, and the indexes of the pages that lost some.
 */
export function dropRunningLines(pages: LayoutLine[][]): { pages: LayoutLine[][]; dropped: number; pagesWithDrops: number[] } {
  const edges = pages.map(edgeLines);
  const seenOn = new Map<string, number>();
  for (const edge of edges) {
    for (const key of new Set([...edge].map((l) => runningKey(l.text)))) seenOn.set(key, (seenOn.get(key) ?? 0) + 1);
  }
  const needed = Math.max(2, Math.ceil(pages.length * RECURRING_SHARE));
  const isRunning = (line: LayoutLine, i: number) =>
    edges[i]!.has(line) && ((seenOn.get(runningKey(line.text)) ?? 0) >= needed || PAGE_NUMBER.test(line.text.trim()));
  let dropped = 0;
  const pagesWithDrops: number[] = [];
  const kept = pages.map((lines, i) => {
    const body = lines.filter((line) => !isRunning(line, i));
    if (body.length === 0 || body.length === lines.length) return lines;
    dropped += lines.length - body.length;
    pagesWithDrops.push(i);
    return body;
  });
  return { pages: kept, dropped, pagesWithDrops };
}
