import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { envelope } from '../shared/envelope.js';
import { ProviderError } from '../shared/providerError.js';
import { fetchJson } from '../shared/fetchJson.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { parseXml, childOf, textOf } from '../shared/xml.js';
import { matchesRef, requireEuropepmcId } from './europepmcIds.js';
import { europepmcPdfCandidates, europepmcRecord } from './europepmcRecords.js';
import { europepmcManifest } from './manifest.js';
import { parseEuropepmcSearch, type EuropepmcPage } from './parseEuropepmcSearch.js';

const DEFAULT_BASE_URL = 'https://www.ebi.ac.uk/europepmc/webservices/rest';
/** Europe PMC allows 1000 per page, but a core page that size runs to ~10 MB, past the response limit. */
const MAX_PAGE_SIZE = 100;
/** Cursor marks are base64-like tokens; "*" starts a search. */
const CURSOR_MARK = /^(\*|[A-Za-z0-9+/=_-]{1,512})$/;
const SORT = /^[A-Z_]{2,30} (asc|desc)$/;

const searchInput = {
  query: z.string().trim().min(1).max(4000).describe('Europe PMC query, e.g. "TITLE:crispr AND OPEN_ACCESS:y"'),
  resultType: z.enum(['lite', 'core']).default('lite').describe('lite: citation fields; core: adds abstract, license, MeSH, full-text links'),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(25).describe(`results per page, 1–${MAX_PAGE_SIZE}`),
  cursorMark: z.string().trim().max(512).default('*').describe('"*" for the first page, then the nextCursorMark of the previous page'),
  sort: z.string().trim().max(40).optional().describe('FIELD asc|desc, e.g. "CITED desc" or "P_PDATE_D desc"'),
  synonym: z.boolean().default(false).describe('expand the query with MeSH synonyms'),
};

const getInput = {
  ids: z.array(z.string().trim().min(1).max(200)).min(1).max(25).describe('PMIDs, PMCIDs, DOIs, PPR ids or SOURCE:id pairs'),
};

type SearchArgs = { query: string; resultType: 'lite' | 'core'; pageSize: number; cursorMark: string; sort?: string; synonym: boolean };

/** The Europe PMC source as an MCP server: `search` (cursorMark paging) and `get`. */
export function createEuropepmcServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-europepmc', version: europepmcManifest.version });
  const base = (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const search = async (params: Record<string, string>, signal: AbortSignal): Promise<EuropepmcPage> => {
    const query = new URLSearchParams({ ...params, format: 'json' });
    const { json } = await fetchJson(deps, `${base}/search?${query}`, {
      provider: 'Europe PMC',
      signal,
      describeError: describeEuropepmcError,
    });
    return parseEuropepmcSearch(json, params.cursorMark ?? '*');
  };
  server.registerTool(
    'search',
    { title: 'Search Europe PMC', description: europepmcManifest.tools[0]!.description, inputSchema: searchInput },
    (args, extra) =>
      runTool(async () => {
        const params = searchParams(args);
        return searchResult(deps, args, await search(params, extra.signal));
      }),
  );
  server.registerTool(
    'get',
    { title: 'Get Europe PMC records', description: europepmcManifest.tools[1]!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getRecords(deps, args.ids, search, extra.signal)),
  );
  return server;
}

/** Cursor and sort are checked before any request: a bad cursor costs a round trip that answers nothing useful. */
function searchParams(args: SearchArgs): Record<string, string> {
  if (!CURSOR_MARK.test(args.cursorMark)) {
    throw new ProviderError('invalid_input', 'cursorMark: use "*" or the nextCursorMark a previous page returned');
  }
  if (args.sort && !SORT.test(args.sort)) {
    throw new ProviderError('invalid_input', `sort: "${args.sort}" is not FIELD asc|desc, e.g. "CITED desc"`);
  }
  return {
    query: args.query,
    resultType: args.resultType,
    pageSize: String(args.pageSize),
    cursorMark: args.cursorMark,
    synonym: String(args.synonym),
    ...(args.sort ? { sort: args.sort } : {}),
  };
}

function searchResult(deps: SourceDeps, args: SearchArgs, page: EuropepmcPage): McpToolResult {
  return envelope(europepmcManifest, 'search', deps, {
    records: page.results.map(europepmcRecord),
    artifacts: page.results.flatMap(europepmcPdfCandidates),
    warnings:
      page.results.length === 0 && page.hitCount > 0 && args.cursorMark !== '*'
        ? ['Europe PMC returned no results for this cursor; the previous page was the last one.']
        : [],
    data: { hitCount: page.hitCount, cursorMark: args.cursorMark, nextCursorMark: page.nextCursorMark ?? null, pageSize: args.pageSize },
  });
}

async function getRecords(
  deps: SourceDeps,
  rawIds: string[],
  search: (params: Record<string, string>, signal: AbortSignal) => Promise<EuropepmcPage>,
  signal: AbortSignal,
): Promise<McpToolResult> {
  const refs = rawIds.map((raw, i) => requireEuropepmcId(raw, `ids[${i}]`));
  const clauses = [...new Set(refs.map((r) => r.clause))];
  const query = clauses.length === 1 ? clauses[0]! : clauses.map((c) => `(${c})`).join(' OR ');
  // A DOI can match a journal record and its preprint, so leave room for two hits per id.
  const page = await search({ query, resultType: 'core', pageSize: String(Math.min(MAX_PAGE_SIZE, refs.length * 2)), cursorMark: '*' }, signal);
  const results = page.results.filter((r) => refs.some((ref) => matchesRef(ref, r)));
  const missing = rawIds.filter((_, i) => !results.some((r) => matchesRef(refs[i]!, r)));
  return envelope(europepmcManifest, 'get', deps, {
    records: results.map(europepmcRecord),
    artifacts: results.flatMap(europepmcPdfCandidates),
    warnings: missing.length > 0 ? [`Europe PMC has no record for ${missing.join(', ')}`] : [],
  });
}

/** Europe PMC's reason from an error body: JSON `errMsg`, or the `<errorBean><errMsg>` XML some endpoints send. */
export function describeEuropepmcError(body: string): string {
  try {
    const json = JSON.parse(body) as { errMsg?: unknown; message?: unknown };
    const text = json.errMsg ?? json.message;
    return typeof text === 'string' ? text : '';
  } catch {
    try {
      return textOf(childOf(parseXml(body, 'Europe PMC'), '', 'errMsg')).trim();
    } catch {
      return '';
    }
  }
}
