/**
 * Characters that change how a line reads without being seen: format characters (zero-width,
 * bidi overrides and isolates, the byte-order mark) and the Unicode line separators. Names
 * (servers, workspace files) refuse them; text shown to a caller has them escaped.
 */
export const INVISIBLE_CHARS = /[\p{Cf}\u2028\u2029]/u;

/** Control characters and INVISIBLE_CHARS, written as `\u202e` instead: an echoed name could otherwise reorder the rest of a line. */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f\p{Cf}\u2028\u2029]/gu;

/**
 * One line of at most `maxChars` characters, whitespace runs collapsed, unshowable characters
 * escaped, cut with an ellipsis: safe to show a caller. Lives in the catalog because errors
 * (gateway/core) and sources both bound the text they pass on, and neither may import the other.
 */
export function boundText(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').replace(UNSHOWABLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}
