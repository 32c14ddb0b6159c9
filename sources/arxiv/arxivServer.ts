import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ProviderError } from '../shared/providerError.js';
import { providerFetch } from '../shared/providerFetch.js';
import { runTool } from '../shared/toolResponses.js';
import { envelope } from '../shared/envelope.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { formatArxivId, parseArxivId, type ArxivId } from './arxivIds.js';
import { arxivPdfCandidate, arxivRecord } from './arxivRecords.js';
import { describeArxivError, parseArxivFeed, type ArxivFeed } from './parseArxivFeed.js';
import { arxivManifest } from './manifest.js';

const DEFAULT_BASE_URL = 'https://export.arxiv.org/api';
/** arXiv serves at most 30,000 results of one query. */
const MAX_REACHABLE = 30_000;

const searchInput = {
  query: z.string().trim().min(1).max(1000).describe('arXiv query, e.g. "ti:transformer AND cat:cs.LG"'),
  start: z.number().int().min(0).max(MAX_REACHABLE - 1).default(0).describe('0-based offset of the first result'),
  maxResults: z.number().int().min(1).max(100).default(10).describe('results per page, 1–100'),
  sortBy: z.enum(['relevance', 'lastUpdatedDate', 'submittedDate']).default('relevance'),
  sortOrder: z.enum(['ascending', 'descending']).default('descending'),
};

const getInput = {
  ids: z
    .array(z.string().trim().min(1).max(64))
    .min(1)
    .max(50)
    .describe('arXiv ids: 2104.12255, 2104.12255v1, arXiv:1605.08386 or hep-th/9711200'),
};

/** The arXiv source as an MCP server: `search` and `get`. */
export function createArxivServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-arxiv', version: arxivManifest.version });
  const base = (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');

  const query = async (params: URLSearchParams, signal: AbortSignal): Promise<ArxivFeed> => {
    const response = await providerFetch(deps, `${base}/query?${params}`, {
      provider: 'arXiv',
      signal,
      accept: 'application/atom+xml',
      describeError: describeArxivError,
    });
    return parseArxivFeed(response.body);
  };

  server.registerTool(
    'search',
    { title: 'Search arXiv', description: arxivManifest.tools[0]!.description, inputSchema: searchInput },
    (args, extra) =>
      runTool(async () => {
        const params = new URLSearchParams({
          search_query: args.query,
          start: String(args.start),
          max_results: String(args.maxResults),
          sortBy: args.sortBy,
          sortOrder: args.sortOrder,
        });
        const feed = await query(params, extra.signal);
        return envelope(arxivManifest, 'search', deps, {
          records: feed.entries.map(arxivRecord),
          artifacts: feed.entries.map(arxivPdfCandidate),
          warnings: searchWarnings(feed, args.start),
          // arXiv sometimes answers an empty page for one that exists: asking again should get it.
          partial: feed.entries.length === 0 && feed.totalResults > args.start,
          data: pageData(feed),
        });
      }),
  );

  server.registerTool(
    'get',
    { title: 'Get arXiv papers by id', description: arxivManifest.tools[1]!.description, inputSchema: getInput },
    (args, extra) =>
      runTool(async () => {
        const ids = args.ids.map(requireArxivId);
        const params = new URLSearchParams({
          id_list: ids.map(formatArxivId).join(','),
          start: '0',
          max_results: String(ids.length),
        });
        const feed = await query(params, extra.signal);
        const missing = ids.filter((id) => !feed.entries.some((e) => sameId(e.id, id))).map(formatArxivId);
        return envelope(arxivManifest, 'get', deps, {
          records: feed.entries.map(arxivRecord),
          artifacts: feed.entries.map(arxivPdfCandidate),
          warnings: missing.length > 0 ? [`arXiv has no paper with id ${missing.join(', ')}`] : [],
          data: pageData(feed),
        });
      }),
  );
  return server;
}

function requireArxivId(raw: string): ArxivId {
  const id = parseArxivId(raw);
  if (!id) {
    throw new ProviderError(
      'invalid_input',
      `ids: "${raw.slice(0, 64)}" is not an arXiv id; use 2104.12255, 2104.12255v1 or hep-th/9711200`,
    );
  }
  return id;
}

function sameId(found: ArxivId, asked: ArxivId): boolean {
  return found.base === asked.base && (asked.version === undefined || found.version === asked.version);
}

function pageData(feed: ArxivFeed) {
  const next = feed.startIndex + feed.entries.length;
  return {
    totalResults: feed.totalResults,
    startIndex: feed.startIndex,
    itemsPerPage: feed.itemsPerPage,
    nextStart: next < Math.min(feed.totalResults, MAX_REACHABLE) && feed.entries.length > 0 ? next : null,
  };
}

function searchWarnings(feed: ArxivFeed, start: number): string[] {
  const warnings: string[] = [];
  if (feed.entries.length === 0 && feed.totalResults > start) {
    warnings.push('arXiv returned an empty page although more results exist; retry later or refine the query.');
  }
  if (feed.totalResults > MAX_REACHABLE) {
    warnings.push(`arXiv serves only the first ${MAX_REACHABLE} of ${feed.totalResults} results; refine the query.`);
  }
  return warnings;
}
