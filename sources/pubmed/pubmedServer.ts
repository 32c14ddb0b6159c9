import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ArtifactCandidate, JsonValue, McpToolResult } from '../../catalog/index.js';
import { createEutilsClient, type EsearchPage, type EutilsClient } from '../shared/eutilsClient.js';
import { envelope } from '../shared/envelope.js';
import { ProviderError } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { secondaryBaseUrl } from '../shared/secondaryBaseUrl.js';
import { pubmedManifest } from './manifest.js';
import { parsePubmedArticles, type PubmedArticle } from './parsePubmedArticles.js';
import { PMC_OA_BASE_URL, lookupPmcOpenAccess } from './pmcOpenAccess.js';
import { requireEutilsDate, requirePmid } from './pubmedIds.js';
import { pubmedRecord } from './pubmedRecords.js';

/** PubMed's ESearch serves only the first 10,000 hits of any query. */
const MAX_REACHABLE = 10_000;
/** Each open-access lookup costs two requests; past this many PMCIDs a `get` says so instead. */
const MAX_OPEN_ACCESS_LOOKUPS = 10;

const searchInput = {
  query: z.string().trim().min(1).max(4000).describe('PubMed query with field tags, e.g. "crispr[ti] AND review[pt]"'),
  start: z.number().int().min(0).max(MAX_REACHABLE - 1).default(0).describe('0-based offset (retstart); at most 9,999'),
  maxResults: z.number().int().min(1).max(100).default(20).describe('results per page (retmax), 1–100'),
  sort: z.enum(['relevance', 'pub_date', 'Author', 'JournalName']).default('relevance'),
  dateType: z.enum(['pdat', 'edat', 'mdat']).optional().describe('publication, Entrez or modification date; default pdat'),
  minDate: z.string().trim().max(10).optional().describe('YYYY, YYYY/MM or YYYY/MM/DD; needs maxDate'),
  maxDate: z.string().trim().max(10).optional().describe('YYYY, YYYY/MM or YYYY/MM/DD; needs minDate'),
};

const getInput = {
  pmids: z.array(z.string().trim().min(1).max(32)).min(1).max(50).describe('PMIDs, e.g. ["28775130"]'),
  openAccess: z.boolean().default(true).describe('look up PMC open-access files for articles that have a PMCID'),
};

type SearchArgs = { query: string; start: number; maxResults: number; sort: string; dateType?: string; minDate?: string; maxDate?: string };

/** The PubMed source as an MCP server: `search` and `get`. */
export function createPubmedServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-pubmed', version: pubmedManifest.version });
  const eutils = createEutilsClient(deps, { db: 'pubmed', provider: 'PubMed' });
  server.registerTool(
    'search',
    { title: 'Search PubMed', description: pubmedManifest.tools[0]!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchPubmed(deps, eutils, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: 'Get PubMed articles by PMID', description: pubmedManifest.tools[1]!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getPubmed(deps, eutils, args, extra.signal)),
  );
  return server;
}

async function searchPubmed(deps: SourceDeps, eutils: EutilsClient, args: SearchArgs, signal: AbortSignal): Promise<McpToolResult> {
  const dates = dateFilter(args);
  const retmax = Math.min(args.maxResults, MAX_REACHABLE - args.start);
  const page = await eutils.esearch({ term: args.query, retstart: args.start, retmax, sort: args.sort, ...dates }, signal);
  const articles = await fetchArticles(eutils, page.ids, signal);
  return envelope(pubmedManifest, 'search', deps, {
    records: inOrder(articles, page.ids).map(pubmedRecord),
    warnings: [...page.warnings, ...missingWarnings(page.ids, articles), ...windowWarnings(page, args.start + retmax)],
    data: pageData(page, articles.length),
  });
}

async function getPubmed(
  deps: SourceDeps,
  eutils: EutilsClient,
  args: { pmids: string[]; openAccess: boolean },
  signal: AbortSignal,
): Promise<McpToolResult> {
  const pmids = [...new Set(args.pmids.map((raw, i) => requirePmid(raw, `pmids[${i}]`)))];
  const articles = inOrder(await fetchArticles(eutils, pmids, signal), pmids);
  const oa = args.openAccess ? await openAccessFiles(deps, articles, signal) : undefined;
  return envelope(pubmedManifest, 'get', deps, {
    records: articles.map(pubmedRecord),
    ...(oa ? { artifacts: oa.candidates } : {}),
    warnings: [...missingWarnings(pmids, articles), ...(oa?.warnings ?? [])],
    partial: oa?.failed ?? false,
    ...(oa ? { data: { openAccess: oa.status } } : {}),
  });
}

/** EFetch leaves a PMID it has no article for out of its set without a word (one withdrawn since ESearch listed it). */
function missingWarnings(pmids: readonly string[], articles: readonly PubmedArticle[]): string[] {
  const missing = pmids.filter((p) => !articles.some((a) => a.pmid === p));
  return missing.length > 0 ? [`PubMed has no article with PMID ${missing.join(', ')}`] : [];
}

async function fetchArticles(eutils: EutilsClient, pmids: readonly string[], signal: AbortSignal): Promise<PubmedArticle[]> {
  if (pmids.length === 0) return [];
  return parsePubmedArticles(await eutils.efetch({ id: pmids.join(',') }, signal));
}

function inOrder(articles: PubmedArticle[], pmids: readonly string[]): PubmedArticle[] {
  return [...articles].sort((a, b) => pmids.indexOf(a.pmid) - pmids.indexOf(b.pmid));
}

/** Checked before any request: both ends of a date range, each in E-utilities' format. */
function dateFilter(args: SearchArgs): { datetype?: string; mindate?: string; maxdate?: string } {
  if (!args.minDate && !args.maxDate) {
    if (args.dateType) throw new ProviderError('invalid_input', 'dateType: give minDate and maxDate with it');
    return {};
  }
  if (!args.minDate || !args.maxDate) {
    throw new ProviderError('invalid_input', `${args.minDate ? 'maxDate' : 'minDate'}: PubMed needs both minDate and maxDate`);
  }
  return {
    datetype: args.dateType ?? 'pdat',
    mindate: requireEutilsDate(args.minDate, 'minDate'),
    maxdate: requireEutilsDate(args.maxDate, 'maxDate'),
  };
}

function windowWarnings(page: EsearchPage, windowEnd: number): string[] {
  if (page.count <= MAX_REACHABLE) return [];
  const cut = windowEnd >= MAX_REACHABLE ? ' This page reaches the end of that window.' : '';
  return [
    `PubMed found ${page.count} hits but serves only the first ${MAX_REACHABLE}; narrow the query or split it by date range (minDate/maxDate).${cut}`,
  ];
}

function pageData(page: EsearchPage, returned: number): JsonValue {
  const next = page.retstart + page.ids.length;
  return {
    count: page.count,
    start: page.retstart,
    returned,
    nextStart: page.ids.length > 0 && next < Math.min(page.count, MAX_REACHABLE) ? next : null,
    queryTranslation: page.queryTranslation ?? null,
  };
}

/** Open-access files are a bonus: a failed lookup becomes a warning (and a partial result), never a failed `get`. */
async function openAccessFiles(deps: SourceDeps, articles: PubmedArticle[], signal: AbortSignal) {
  const withPmc = articles.filter((a): a is PubmedArticle & { pmcid: string } => a.pmcid !== undefined);
  const candidates: ArtifactCandidate[] = [];
  const warnings: string[] = [];
  const status: JsonValue[] = [];
  let failed = false;
  const baseUrl = secondaryBaseUrl(deps, 'PMC_OA_BASE_URL', PMC_OA_BASE_URL);
  if (!baseUrl) {
    const skipped = withPmc.length > 0 ? ['Open-access files were not looked up: the E-utilities base URL is overridden and PMC_OA_BASE_URL is not set.'] : [];
    return { candidates, warnings: skipped, status, failed: false };
  }
  for (const article of withPmc.slice(0, MAX_OPEN_ACCESS_LOOKUPS)) {
    try {
      const oa = await lookupPmcOpenAccess(deps, { ...article, baseUrl }, signal);
      candidates.push(...oa.candidates);
      status.push({ pmid: article.pmid, pmcid: oa.pmcid, openAccess: oa.openAccess, licenseCode: oa.licenseCode ?? null });
    } catch (error) {
      if (signal.aborted) throw error;
      warnings.push(`Could not check PMC open access for ${article.pmcid}: ${error instanceof Error ? error.message : String(error)}`);
      failed = true;
    }
  }
  if (withPmc.length > MAX_OPEN_ACCESS_LOOKUPS) {
    warnings.push(`Open-access files were looked up for the first ${MAX_OPEN_ACCESS_LOOKUPS} articles with a PMCID only; ask for the rest separately.`);
  }
  return { candidates, warnings, status, failed };
}
