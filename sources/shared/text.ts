import { decodeHTML } from 'entities';

/** Collapses runs of whitespace (providers hard-wrap titles and abstracts). */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Plain text from provider markup (`<i>`, `<sup>`, highlight spans) with entities decoded. */
export function stripMarkup(text: string): string {
  return normalizeWhitespace(decodeHTML(text.replace(/<[^>]*>/g, '')));
}
