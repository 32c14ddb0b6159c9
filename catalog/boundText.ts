/**
 * Control, invisible and text-direction characters, written as `\u202e` instead: an echoed tool
 * name or upstream message with a right-to-left override could make the rest of a line read as
 * something else.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2060-\u2069]/g;

/**
 * One line of at most `maxChars` characters, whitespace runs collapsed, unshowable characters
 * escaped, cut with an ellipsis: safe to show a caller. Lives in the catalog because errors
 * (gateway/core) and sources both bound the text they pass on, and neither may import the other.
 */
export function boundText(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}
