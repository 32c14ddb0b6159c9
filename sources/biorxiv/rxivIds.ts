import { ProviderError } from '../shared/providerError.js';

/** bioRxiv and medRxiv DOIs: prefix 10.1101 (until late 2025) or 10.64898; dated or 6-digit legacy suffix. */
const RXIV_DOI = /^10\.(1101|64898)\/(\d{4}\.\d{2}\.\d{2}\.)?\d{6,8}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Category names as the sites print them ("cell biology") or as the API wants them ("cell_biology"). */
const CATEGORY = /^[a-z][a-z ,_-]{1,60}$/i;

/** The two servers behind api.biorxiv.org. */
export type RxivServer = 'biorxiv' | 'medrxiv';

/** A preprint DOI and, when the caller named one ("…v2"), the version asked for. */
export interface RxivDoi {
  doi: string;
  version?: number;
}

/**
 * Reads a preprint DOI as people paste it: bare, "doi:…", a doi.org link or a content URL with a
 * version ("…/content/10.1101/2020.06.11.145425v2.full.pdf"); undefined when it is not one. The
 * version is not part of the DOI (the API lists every version under the bare DOI), so it is kept apart.
 */
export function parseRxivDoi(input: string): RxivDoi | undefined {
  const pasted = input
    .trim()
    .replace(/^doi:\s*/i, '')
    .replace(/^https?:\/\/(?:dx\.)?doi\.org\//i, '')
    .replace(/^https?:\/\/(?:www\.)?(?:bio|med)rxiv\.org\/content\//i, '');
  const match = /^(.+?)(?:v(\d+))?(?:\.full(?:\.pdf|-text)?|\.abstract)?$/i.exec(pasted);
  if (!match || !RXIV_DOI.test(match[1]!)) return undefined;
  return match[2] === undefined ? { doi: match[1]! } : { doi: match[1]!, version: Number(match[2]) };
}

/** A preprint DOI (with the version named, if any) or an invalid_input error naming the field. */
export function requireRxivDoi(raw: string, field: string): RxivDoi {
  const parsed = parseRxivDoi(raw);
  if (!parsed) {
    throw new ProviderError(
      'invalid_input',
      `${field}: "${raw.slice(0, 80)}" is not a bioRxiv/medRxiv DOI; use 10.1101/2020.06.11.145425 or 10.64898/2025.12.23.696273`,
    );
  }
  return parsed;
}

/** A calendar date YYYY-MM-DD, or an invalid_input error naming the field. */
export function requireDate(raw: string, field: string): string {
  const match = DATE.exec(raw.trim());
  const date = match && new Date(`${match[0]}T00:00:00Z`);
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[0]) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 32)}" is not a date; use YYYY-MM-DD`);
  }
  return match[0];
}

/** The API's category form ("cell biology" → "cell_biology"), or an invalid_input error naming the field. */
export function requireCategory(raw: string, field: string): string {
  const text = raw.trim();
  if (!CATEGORY.test(text)) {
    throw new ProviderError('invalid_input', `${field}: "${text.slice(0, 60)}" is not a category name, e.g. "cell biology"`);
  }
  return text.toLowerCase().replace(/[\s-]+/g, '_');
}
