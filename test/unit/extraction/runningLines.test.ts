import { describe, expect, it } from 'vitest';
import { dropRunningLines } from '../../../gateway/extraction/runningLines.js';
import type { LayoutLine } from '../../../gateway/extraction/pageLayout.js';

const line = (text: string, y: number): LayoutLine => ({ text, y, x: 72 });
const texts = (pages: LayoutLine[][]) => pages.map((lines) => lines.map((l) => l.text));

describe('dropRunningLines', () => {
  it('drops a header that recurs on every page and a page number, naming the pages that lost them', () => {
    const words = ['Alpha', 'Beta', 'Gamma'];
    const pages = words.map((w, i) => [line('Journal of Tests · Vol. 7', 750), line(`${w} opens the page.`, 700), line(`${w} goes on.`, 500), line(`${w} closes it.`, 400), line(String(i + 1), 40)]);
    const { pages: kept, dropped, pagesWithDrops } = dropRunningLines(pages);
    expect(texts(kept)).toEqual(words.map((w) => [`${w} opens the page.`, `${w} goes on.`, `${w} closes it.`]));
    expect(dropped).toBe(6);
    expect(pagesWithDrops).toEqual([0, 1, 2]);
  });

  it('keeps a page whose only text recurs on every page: that line is its body, not a header', () => {
    const pages = [1, 2, 3].map((n) => [line(`The quick brown fox page ${n}`, 700)]);
    const { pages: kept, dropped, pagesWithDrops } = dropRunningLines(pages);
    expect(texts(kept)).toEqual([['The quick brown fox page 1'], ['The quick brown fox page 2'], ['The quick brown fox page 3']]);
    expect([dropped, pagesWithDrops]).toEqual([0, []]);
  });
});
