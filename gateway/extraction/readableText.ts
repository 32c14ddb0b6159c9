/** Ligature code points (U+FB00–U+FB06) and what they spell. */
const LIGATURES = /[\uFB00-\uFB06]/g;

/** NFC with ligatures spelled out (ﬁ → fi), so search and tokenizers see ordinary letters. */
export function normalizeText(text: string): string {
  return text.replace(LIGATURES, (c) => c.normalize('NFKC')).normalize('NFC');
}

/** A line that ends a word with a hyphen: a letter, then "-" (or a soft hyphen). */
const TRAILING_HYPHEN = /(\p{Ll})[-\u00AD]$/u;
/** The next line starts with the rest of that word in lower case. */
const LEADING_REST = /^(\p{Ll}[\p{L}\p{M}]*)(\S*)\s*/u;

/**
 * Joins a column's lines into text: a word hyphenated across a line end is rejoined on the first line
 * ("hyphen-" + "ation" → "hyphenation"); compound words whose second part is capitalized keep the hyphen.
 */
export function joinLines(lines: string[]): string {
  const out = [...lines];
  for (let i = 0; i + 1 < out.length; i += 1) {
    const line = out[i]!;
    const next = out[i + 1]!;
    if (!TRAILING_HYPHEN.test(line)) continue;
    const rest = LEADING_REST.exec(next);
    if (!rest) continue;
    out[i] = line.slice(0, -1) + rest[1]! + rest[2]!;
    out[i + 1] = next.slice(rest[0].length);
  }
  return out.filter((l) => l.length > 0).join('\n');
}

/** Characters a font without a Unicode map yields: private-use code points, U+FFFD, C0 controls. */
const UNMAPPED = /[\uE000-\uF8FF\uFFFD\u0000-\u0008\u000E-\u001F]/u;

/** True when a run of text shows signs of a font without a ToUnicode map. */
export function looksUnmapped(text: string): boolean {
  return UNMAPPED.test(text);
}
