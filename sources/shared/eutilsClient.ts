import { z } from 'zod';
import type { SourceDeps } from './sourceDefinition.js';
import { ProviderError, boundProviderText } from './providerError.js';
import { providerFetch } from './providerFetch.js';
import { fetchJson } from './fetchJson.js';
import { parseShape } from './parseShape.js';
import { childrenOf, parseXml, textOf, type XmlElement } from './xml.js';

/** The public E-utilities endpoint; `deps.baseUrl` replaces it (mirrors, loopback tests). */
export const EUTILS_BASE_URL = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils';

/** NCBI asks every caller to name its tool; the email and key come from the source settings. */
const TOOL_NAME = 'scigate';

/**
 * NCBI allows 3 requests/s per caller (10 with an API key) across all E-utilities. The gateway
 * spaces the NCBI sources' calls (limit group `ncbi`); the same group's request pacer spaces every
 * request of PubMed, ClinVar and GEO together, including the several requests inside one call.
 * The spacing has a margin over 1000/3 (and 1000/10) ms: a request leaves a few milliseconds after
 * its turn (a busy event loop, another process of the same pace over Redis), and four spaced exactly
 * a third of a second apart could then arrive at NCBI within one second.
 */
const REQUEST_SPACING_MS = { withoutKey: 350, withKey: 110 };

/** The limit group of the NCBI sources' manifests, and of their shared request spacing. */
export const NCBI_LIMIT_GROUP = 'ncbi';

/** NCBI sends counts as strings ("63"); numbers are accepted too. */
const count = z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).transform(Number);
const texts = z.array(z.string()).optional();

const esearchSchema = z.object({
  error: z.string().optional(),
  esearchresult: z
    .object({
      ERROR: z.string().optional(),
      count: count.optional(),
      retstart: count.optional(),
      idlist: z.array(z.string()).optional(),
      querytranslation: z.string().optional(),
      errorlist: z.object({ phrasesnotfound: texts, fieldsnotfound: texts }).optional(),
      warninglist: z.object({ outputmessages: texts }).optional(),
    })
    .optional(),
});

const esummarySchema = z.object({
  error: z.string().optional(),
  esummaryresult: z.array(z.string()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});

/** ESearch parameters; `retstart`/`retmax` as E-utilities names them, dates as YYYY[/MM[/DD]]. */
export interface EsearchParams {
  term: string;
  retstart: number;
  retmax: number;
  sort?: string;
  datetype?: string;
  mindate?: string;
  maxdate?: string;
}

/** One ESearch page with NCBI's string counts turned into numbers. */
export interface EsearchPage {
  count: number;
  retstart: number;
  ids: string[];
  queryTranslation?: string;
  /** Phrases NCBI could not match and its own warnings, for the caller to read. */
  warnings: string[];
}

/** ESummary documents (unchecked; each source parses its db's shape) in NCBI's order, and the uids it could not summarize. */
export interface EsummaryResult {
  docs: unknown[];
  missing: string[];
}

/** A client for one E-utilities database (db=pubmed, clinvar, gds), shared by the three NCBI sources. */
export interface EutilsClient {
  esearch(params: EsearchParams, signal?: AbortSignal): Promise<EsearchPage>;
  esummary(ids: readonly string[], signal?: AbortSignal): Promise<EsummaryResult>;
  /** EFetch as XML; `params` are the db-specific ones (id, rettype, is_variationid …). */
  efetch(params: Record<string, string>, signal?: AbortSignal): Promise<XmlElement>;
}

/** Which E-utilities database a client talks to, and the provider name its errors carry. */
export interface EutilsClientOptions {
  /** E-utilities database name. */
  db: string;
  /** Provider name used in error messages (e.g. "PubMed"). */
  provider: string;
}

/** Creates the E-utilities client: identifies the caller, and turns errors hidden in HTTP 200 bodies into ProviderErrors. */
export function createEutilsClient(deps: SourceDeps, options: EutilsClientOptions): EutilsClient {
  const base = (deps.baseUrl ?? EUTILS_BASE_URL).replace(/\/+$/, '');
  const { provider, db } = options;
  const url = (endpoint: string, params: Record<string, string>) =>
    `${base}/${endpoint}?${new URLSearchParams({ db, ...params, ...identification(deps) })}`;
  const fetchOptions = (signal?: AbortSignal) => ({ provider, describeError: describeEutilsError, ...(signal ? { signal } : {}) });
  const paced = pacer(deps);

  return {
    async esearch(params, signal) {
      await paced(signal);
      const { json } = await fetchJson(deps, url('esearch.fcgi', esearchQuery(params)), fetchOptions(signal));
      return readEsearch(parseShape(esearchSchema, json, provider, 'ESearch answer'), provider);
    },
    async esummary(ids, signal) {
      await paced(signal);
      const { json } = await fetchJson(deps, url('esummary.fcgi', { id: ids.join(','), retmode: 'json' }), fetchOptions(signal));
      return readEsummary(parseShape(esummarySchema, json, provider, 'ESummary answer'), provider);
    },
    async efetch(params, signal) {
      await paced(signal);
      const response = await providerFetch(deps, url('efetch.fcgi', { retmode: 'xml', ...params }), {
        ...fetchOptions(signal),
        accept: 'application/xml',
      });
      const root = parseXml(response.body, provider);
      const error = childrenOf(root, '', 'ERROR').map((e) => textOf(e).trim()).find(Boolean);
      if (error) throw eutilsMessageError(provider, error);
      return root;
    },
  };
}

/**
 * Classifies an error NCBI reported inside a body: rate limits and backend failures are worth
 * retrying, anything else (bad term, bad id, bad db) is the caller's input.
 */
export function eutilsMessageError(provider: string, message: string): ProviderError {
  const text = `${provider} reported an error: ${boundProviderText(message)}`;
  if (/rate limit/i.test(message)) return new ProviderError('rate_limited', text, { retryable: true });
  if (/backend|temporar|unavailable|timed? ?out|try again|internal|server error/i.test(message)) {
    return new ProviderError('upstream_error', text, { retryable: true });
  }
  return new ProviderError('invalid_input', text);
}

/** The reason NCBI gives in an error body (`{"error":"API rate limit exceeded",…,"limit":"3"}` on 429). */
export function describeEutilsError(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: unknown; limit?: unknown };
    if (typeof json.error !== 'string') return '';
    return typeof json.limit === 'string' ? `${json.error} (limit ${json.limit} requests/s)` : json.error;
  } catch {
    return '';
  }
}

/** The spacing of one E-utilities caller, shared by every NCBI source through the gateway's pacer. */
function pacer(deps: SourceDeps): (signal?: AbortSignal) => Promise<void> {
  const spacingMs = deps.settings?.NCBI_API_KEY?.trim() ? REQUEST_SPACING_MS.withKey : REQUEST_SPACING_MS.withoutKey;
  return deps.pacer(NCBI_LIMIT_GROUP, spacingMs);
}

function identification(deps: SourceDeps): Record<string, string> {
  const email = deps.settings?.NCBI_EMAIL?.trim();
  const apiKey = deps.settings?.NCBI_API_KEY?.trim();
  return { tool: TOOL_NAME, ...(email ? { email } : {}), ...(apiKey ? { api_key: apiKey } : {}) };
}

function esearchQuery(params: EsearchParams): Record<string, string> {
  const query: Record<string, string> = {
    term: params.term,
    retstart: String(params.retstart),
    retmax: String(params.retmax),
    retmode: 'json',
  };
  for (const key of ['sort', 'datetype', 'mindate', 'maxdate'] as const) {
    const value = params[key];
    if (value) query[key] = value;
  }
  return query;
}

function readEsearch(answer: z.output<typeof esearchSchema>, provider: string): EsearchPage {
  const error = answer.error ?? answer.esearchresult?.ERROR;
  if (error) throw eutilsMessageError(provider, error);
  const result = answer.esearchresult;
  if (result?.count === undefined) {
    throw new ProviderError('upstream_error', `${provider} sent an ESearch answer without a count`, { retryable: true });
  }
  const notFound = [...(result.errorlist?.phrasesnotfound ?? []), ...(result.errorlist?.fieldsnotfound ?? [])];
  const messages = (result.warninglist?.outputmessages ?? []).filter((m) => m && !/^no items found\.?$/i.test(m.trim()));
  return {
    count: result.count,
    retstart: result.retstart ?? 0,
    ids: result.idlist ?? [],
    ...(result.querytranslation ? { queryTranslation: result.querytranslation } : {}),
    warnings: [
      ...(notFound.length > 0 ? [`${provider} found nothing for: ${notFound.join(', ')}`] : []),
      ...messages.map((m) => `${provider}: ${m}`),
    ],
  };
}

function readEsummary(answer: z.output<typeof esummarySchema>, provider: string): EsummaryResult {
  const error = answer.error ?? answer.esummaryresult?.find((m) => m.trim());
  if (error) throw eutilsMessageError(provider, error);
  if (!answer.result) {
    throw new ProviderError('upstream_error', `${provider} sent an ESummary answer without result`, { retryable: true });
  }
  const result = answer.result;
  const uids = Array.isArray(result.uids) ? result.uids.filter((u): u is string => typeof u === 'string') : [];
  const docs: unknown[] = [];
  const missing: string[] = [];
  // NCBI keys documents by uid and gives the order in `uids`; object key order would put them in numeric order.
  for (const uid of uids) {
    const doc = result[uid] as { error?: unknown } | undefined;
    if (doc && typeof doc === 'object' && !doc.error) docs.push(doc);
    else missing.push(uid);
  }
  return { docs, missing };
}
