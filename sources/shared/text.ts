import { decodeHTML } from 'entities';

/**
 * Collapses runs of whitespace (providers hard-wrap titles and abstracts). Only runs that are not
 * already one space are replaced: `/\s+/` matched every space between words, which made an arXiv
 * feed's abstracts cost ~100 us instead of ~20.
 */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * A tag as HTML reads one: `<` then a letter, `/` and a letter, `!` or `?`. Any other `<` is text
 * ("p <.05", "survival of <1 year"), and a tag never spans another `<`, so such text is not taken for
 * the start of a tag that runs to the next real one.
 */
const TAG = /<(?:\/?[A-Za-z]|[!?])[^<>]*>/g;

/** Plain text from provider markup (`<i>`, `<sup>`, highlight spans) with entities decoded. */
export function stripMarkup(text: string): string {
  return normalizeWhitespace(decodeHTML(text.replace(TAG, '')));
}
