import { describe, expect, it } from 'vitest';
import { normalizeWhitespace } from '../../../sources/shared/text.js';

describe('normalizeWhitespace', () => {
  it('turns every run of whitespace into one space and trims, leaving single spaces as they are', () => {
    expect(normalizeWhitespace('  A hard-wrapped\n  abstract,\r\nwith\ttabs  and  doubles ')).toBe('A hard-wrapped abstract, with tabs and doubles');
    expect(normalizeWhitespace('one\ntwo')).toBe('one two');
    expect(normalizeWhitespace('no\u00a0break and\u3000wide \n space')).toBe('no break and wide space');
    expect(normalizeWhitespace('already plain')).toBe('already plain');
    expect(normalizeWhitespace(' \n\t ')).toBe('');
  });
});
