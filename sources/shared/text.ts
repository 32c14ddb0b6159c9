import { decodeHTML } from 'entities';

/** Collapses runs of whitespace (providers hard-wrap titles and abstracts). */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** One line of at most `maxChars` characters, cut with an ellipsis: safe to show a caller. */
export function boundText(text: string, maxChars: number): string {
  const flat = normalizeWhitespace(text);
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}

/** Plain text from provider markup (`<i>`, `<sup>`, highlight spans) with entities decoded. */
export function stripMarkup(text: string): string {
  return normalizeWhitespace(decodeHTML(text.replace(/<[^>]*>/g, '')));
}
