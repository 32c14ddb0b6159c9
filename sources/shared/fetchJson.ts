import type { SourceDeps } from './sourceDefinition.js';
import { providerFetch, type ProviderFetchOptions } from './providerFetch.js';
import { parseJson } from './json.js';

/** A provider's JSON answer; `json` is undefined for a bodiless 204 (RCSB search's "no hits") or a non-JSON error body. */
export interface JsonResponse {
  status: number;
  headers: Headers;
  json: unknown;
  /** The raw body, for reading a passed-through error status. */
  body: string;
}

/**
 * GETs a provider JSON endpoint: every failure classified (a 429 with its Retry-After), the body
 * parsed (malformed → retryable `upstream_error`).
 */
export async function fetchJson(deps: SourceDeps, url: string, options: ProviderFetchOptions): Promise<JsonResponse> {
  const response = await providerFetch(deps, url, { accept: 'application/json', describeError: describeJsonError, ...options });
  if (response.status === 204 && response.body.trim() === '') {
    return { ...response, json: undefined };
  }
  // A passed-through error status (Reactome's 404 for no hits) may come with an HTML page: its body
  // is read only when it is JSON, and the caller decides from the status alone.
  const json = response.status >= 300 ? tryParse(response.body) : parseJson(response.body, options.provider);
  return { ...response, json };
}

function tryParse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The provider's own reason from a JSON error body: `messages[]` (UniProt, Reactome), `error`
 * (Ensembl), `error_message` (ChEMBL), `message` (RCSB); empty when there is none.
 */
export function describeJsonError(body: string): string {
  const value = tryParse(body);
  if (typeof value !== 'object' || value === null) return '';
  const fields = value as Record<string, unknown>;
  const messages = fields.messages;
  if (Array.isArray(messages)) return messages.filter((m) => typeof m === 'string').join('; ');
  for (const key of ['error', 'error_message', 'message', 'reason']) {
    const text = fields[key];
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return '';
}
