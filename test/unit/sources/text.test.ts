import { describe, expect, it } from 'vitest';
import { normalizeWhitespace, stripMarkup } from '../../../sources/shared/text.js';

describe('normalizeWhitespace', () => {
  it('turns every run of whitespace into one space and trims, leaving single spaces as they are', () => {
    expect(normalizeWhitespace('  A hard-wrapped\n  abstract,\r\nwith\ttabs  and  doubles ')).toBe('A hard-wrapped abstract, with tabs and doubles');
    expect(normalizeWhitespace('one\ntwo')).toBe('one two');
    expect(normalizeWhitespace('no\u00a0break and\u3000wide \n space')).toBe('no break and wide space');
    expect(normalizeWhitespace('already plain')).toBe('already plain');
    expect(normalizeWhitespace(' \n\t ')).toBe('');
  });
});

describe('stripMarkup', () => {
  it('removes tags and decodes entities', () => {
    expect(stripMarkup('H<sub>2</sub>S in <i>vivo</i> &amp; <span class="hl">vitro</span>')).toBe('H2S in vivo & vitro');
  });

  it('keeps a literal "<" that starts no tag, even when a real tag follows it', () => {
    expect(stripMarkup('larger (<i>p</i> <.05). Computed tomography in <i>n</i> = 14 dogs')).toBe(
      'larger (p <.05). Computed tomography in n = 14 dogs',
    );
    expect(stripMarkup('survival of <1 year; P < .05 in <b>all</b> groups')).toBe('survival of <1 year; P < .05 in all groups');
    expect(stripMarkup('1 &lt; 2 <!-- note -->and 3 > 2')).toBe('1 < 2 and 3 > 2');
  });
});
