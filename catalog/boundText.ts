/**
 * One line of at most `maxChars` characters, whitespace runs collapsed, cut with an ellipsis:
 * safe to show a caller. Lives in the catalog because errors (gateway/core) and sources both bound
 * the text they pass on, and neither may import the other.
 */
export function boundText(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}
