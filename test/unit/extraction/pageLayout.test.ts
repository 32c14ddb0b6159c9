import { describe, expect, it } from 'vitest';
import { findGutter, groupLines, joinRuns, layoutPage } from '../../../gateway/extraction/pageLayout.js';
import type { RawPage, TextItem } from '../../../gateway/extraction/pdfTextItems.js';

/** A run of text at (x, y); its width follows from 0.5 em per character. */
function run(str: string, x: number, y: number, fontSize = 10): TextItem {
  return { str, x, y, width: str.length * fontSize * 0.5, fontSize, font: 0 };
}

function page(items: TextItem[]): RawPage {
  return { page: 1, width: 612, height: 792, items, fonts: ['serif g_d0_f1'] };
}

describe('layoutPage: reading order', () => {
  it('reads a two-column page column by column, not line across', () => {
    const items = [
      run('left one', 72, 700), run('right one', 320, 700),
      run('left two', 72, 688), run('right two', 320, 688),
      run('left three', 72, 676), run('right three', 320, 676),
    ];
    expect(layoutPage(page(items)).map((l) => l.text)).toEqual(['left one', 'left two', 'left three', 'right one', 'right two', 'right three']);
  });

  it('a full-width title above the columns is read first, and a full-width line between bands separates them', () => {
    const wide = 'A Title That Runs Across Both Columns Of The Page Easily Enough To Span';
    const items = [
      run(wide, 72, 740), run('l1', 72, 700), run('r1', 320, 700), run('l2', 72, 688), run('r2', 320, 688),
      run(`${wide} again`, 72, 600), run('l3', 72, 560), run('r3', 320, 560), run('l4', 72, 548), run('r4', 320, 548),
    ];
    expect(layoutPage(page(items)).map((l) => l.text)).toEqual([wide, 'l1', 'l2', 'r1', 'r2', `${wide} again`, 'l3', 'l4', 'r3', 'r4']);
  });

  it('a single column with ragged lines is not split into columns', () => {
    const items = [run('a short line', 72, 700), run('a much longer line that runs well past the middle of the page', 72, 688), run('end', 72, 676)];
    expect(findGutter(items, 612)).toBeUndefined();
    expect(layoutPage(page(items)).map((l) => l.text)).toEqual(items.map((i) => i.str));
  });

  it('a centred page number in the gutter does not hide the gutter', () => {
    const items = [run('l1', 72, 700), run('r1', 320, 700), run('l2', 72, 688), run('r2', 320, 688), run('l3', 72, 676), run('r3', 320, 676)];
    for (let y = 664; y > 400; y -= 12) items.push(run('left words here', 72, y), run('right words here', 320, y));
    items.push(run('7', 303, 40));
    expect(findGutter(items, 612)).toBeDefined();
    expect(layoutPage(page(items)).map((l) => l.text).slice(0, 3)).toEqual(['l1', 'l2', 'l3']);
  });
});

describe('joinRuns: words joined correctly', () => {
  it('glyphs placed one by one become one word, not "w o r d s"', () => {
    const letters = [...'words'].map((c, i) => run(c, 100 + i * 5, 500));
    expect(joinRuns(letters)).toBe('words');
  });

  it('a gap wider than a space between runs becomes one space', () => {
    expect(joinRuns([run('two', 100, 500), run('words', 100 + 15 + 4, 500)])).toBe('two words');
    expect(joinRuns([run('two ', 100, 500), run('words', 100 + 20 + 4, 500)])).toBe('two words');
  });

  it('runs on one baseline form one line even when listed out of order', () => {
    expect(groupLines([run('second', 200, 500), run('first', 100, 500.5), run('below', 100, 480)]).map((l) => l.text)).toEqual(['first second', 'below']);
  });
});
