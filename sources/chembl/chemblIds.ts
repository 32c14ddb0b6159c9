import { ProviderError } from '../shared/providerError.js';

const CHEMBL_ID = /^CHEMBL\d+$/;

/** Validates a ChEMBL id (`CHEMBL25`, case-insensitive) and returns it upper-cased; `invalid_input` names `field`. */
export function requireChemblId(raw: string, field: string): string {
  const id = raw.trim().toUpperCase();
  if (!CHEMBL_ID.test(id)) {
    throw new ProviderError('invalid_input', `${field}: "${raw.slice(0, 32)}" is not a ChEMBL id; use e.g. CHEMBL25`);
  }
  return id;
}

/**
 * Validates a paging cursor: the relative `page_meta.next` path of a previous molecule search page,
 * under the configured API path and for the same query, so a cursor can never reach another endpoint.
 */
export function requireChemblCursor(raw: string, options: { apiPath: string; query: string; field: string }): URLSearchParams {
  let url: URL;
  try {
    url = new URL(raw, 'https://cursor.invalid');
  } catch {
    url = new URL('https://other.invalid/');
  }
  const expectedPath = `${options.apiPath}/molecule/search.json`;
  if (!raw.startsWith('/') || url.origin !== 'https://cursor.invalid' || url.pathname !== expectedPath) {
    throw new ProviderError('invalid_input', `${options.field}: not a ChEMBL molecule search cursor; pass data.nextCursor of the previous page`);
  }
  if (url.searchParams.get('q') !== options.query) {
    throw new ProviderError('invalid_input', `${options.field}: this cursor belongs to a different query`);
  }
  return url.searchParams;
}
