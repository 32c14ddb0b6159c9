import { describe, expect, it } from 'vitest';
import { joinLines, looksUnmapped, normalizeText } from '../../../gateway/extraction/readableText.js';
import { dropRunningLines } from '../../../gateway/extraction/runningLines.js';
import type { LayoutLine } from '../../../gateway/extraction/pageLayout.js';

describe('normalizeText', () => {
  it('spells out ligatures and composes accents (NFC)', () => {
    expect(normalizeText('\uFB01nal e\uFB00ect \uFB02ow o\uFB03ce')).toBe('final effect flow office');
    expect(normalizeText('Cafe\u0301 nai\u0308ve')).toBe('Café naïve');
    expect(normalizeText('Café')).toBe('Café'.normalize('NFC'));
  });
});

describe('joinLines: hyphenation at line ends', () => {
  it('rejoins a word split over two lines and keeps the rest of the next line', () => {
    expect(joinLines(['a word split by hyphen-', 'ation stays whole.'])).toBe('a word split by hyphenation\nstays whole.');
  });

  it('keeps the hyphen of a compound whose next part is capitalized, and lines without a hyphen', () => {
    expect(joinLines(['the Hodgkin-', 'Huxley model'])).toBe('the Hodgkin-\nHuxley model');
    expect(joinLines(['one line', 'two lines'])).toBe('one line\ntwo lines');
  });

  it('a soft hyphen at a line end joins too, and a one-word next line is consumed whole', () => {
    expect(joinLines(['inter\u00AD', 'national', 'next'])).toBe('international\nnext');
  });
});

describe('looksUnmapped', () => {
  it('flags private-use and replacement characters, not ordinary text', () => {
    expect(looksUnmapped('\uE001\uE002')).toBe(true);
    expect(looksUnmapped('ab\uFFFD')).toBe(true);
    expect(looksUnmapped('Über naïve — ok')).toBe(false);
  });
});

const line = (text: string, y: number): LayoutLine => ({ text, y, x: 72 });

describe('dropRunningLines', () => {
  const pages = [1, 2, 3].map((n) => [
    line(`Journal of Tests · Vol. 7 · p. ${n}`, 750), line(`Body ${['alpha', 'bravo', 'charlie'][n - 1]} starts`, 700),
    line('middle text', 400), line(`Body ends ${['one', 'two', 'three'][n - 1]}`, 80), line(String(n), 40),
  ]);

  it('drops a header that recurs (digits aside) and page numbers, and keeps the body', () => {
    const { pages: kept, dropped } = dropRunningLines(pages);
    expect(kept.map((p) => p.map((l) => l.text))).toEqual([1, 2, 3].map((n) => [
      `Body ${['alpha', 'bravo', 'charlie'][n - 1]} starts`, 'middle text', `Body ends ${['one', 'two', 'three'][n - 1]}`,
    ]));
    expect(dropped).toBe(6);
  });

  it('keeps a repeated line that is not at a page edge', () => {
    const { pages: kept } = dropRunningLines(pages);
    expect(kept.every((p) => p.some((l) => l.text === 'middle text'))).toBe(true);
  });

  it('a one-page document keeps its first line: a header needs two pages to recur on', () => {
    const { pages: kept } = dropRunningLines([[line('Journal of Tests', 750), line('body', 700), line('more', 690)]]);
    expect(kept[0]!.map((l) => l.text)).toEqual(['Journal of Tests', 'body', 'more']);
  });
});

describe('pageWarnings', () => {
  it('names pages without text (scanned) and the fonts whose text has no Unicode map', async () => {
    const { pageWarnings } = await import('../../../gateway/extraction/buildExtraction.js');
    const item = (str: string, font = 0) => ({ str, x: 72, y: 700, width: 50, fontSize: 10, font });
    const warnings = pageWarnings([
      { page: 1, width: 612, height: 792, items: [item('fine text')], fonts: ['serif g_d0_f1'] },
      { page: 2, width: 612, height: 792, items: [item(' ')], fonts: [] },
      { page: 3, width: 612, height: 792, items: [item('ok'), item('\uE012\uE013', 1)], fonts: ['serif g_d0_f1', 'sans-serif g_d0_f2'] },
    ]);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'scanned_page', pages: [2], message: expect.stringMatching(/scanned page, no OCR/) }),
      expect.objectContaining({ code: 'font_without_unicode', pages: [3], fonts: ['sans-serif g_d0_f2'] }),
    ]);
  });
});
