import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { artifactBaseUrl } from '../shared/artifactBaseUrl.js';
import { envelope } from '../shared/envelope.js';
import { fetchJson } from '../shared/fetchJson.js';
import { nextLinkUrl } from '../shared/linkHeader.js';
import { ProviderError } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { uniprotManifest } from './manifest.js';
import { parseUniprotEntry, parseUniprotSearch, type UniprotEntry } from './parseUniprotEntry.js';
import { requireUniprotAccession, requireUniprotCursor, type UniprotAccession } from './uniprotIds.js';
import { uniprotFastaCandidate, uniprotRecord } from './uniprotRecords.js';

const PROVIDER = 'UniProt';
const DEFAULT_BASE_URL = 'https://rest.uniprot.org';
/** Search asks only for what a record shows, so a 500-entry page stays small. */
const SEARCH_FIELDS = 'accession,id,reviewed,protein_name,gene_names,organism_name,organism_id,length,cc_function';

const searchInput = {
  query: z.string().trim().min(1).max(2000).describe('UniProt query, e.g. "gene:BRCA1 AND organism_id:9606 AND reviewed:true"'),
  size: z.number().int().min(1).max(500).default(25).describe('results per page, 1–500'),
  cursor: z.string().max(512).optional().describe('data.nextCursor of the previous page; omit for the first page'),
};

const getInput = {
  accession: z.string().trim().min(1).max(32).describe('UniProtKB accession, e.g. P05067 or the isoform P05067-2'),
};

interface UniprotContext {
  deps: SourceDeps;
  base: string;
  artifactBase: string;
}

/** The UniProt source as an MCP server: `search` and `get` over rest.uniprot.org. */
export function createUniprotServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-uniprot', version: uniprotManifest.version });
  const context: UniprotContext = {
    deps,
    base: (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    artifactBase: artifactBaseUrl(deps.baseUrl, DEFAULT_BASE_URL, uniprotManifest.allowedDomains),
  };
  const [searchTool, getTool] = uniprotManifest.tools;
  server.registerTool(
    'search',
    { title: searchTool!.title, description: searchTool!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchUniprot(context, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: getTool!.title, description: getTool!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getUniprot(context, args.accession, extra.signal)),
  );
  return server;
}

async function searchUniprot(
  context: UniprotContext,
  args: { query: string; size: number; cursor?: string },
  signal: AbortSignal,
): Promise<McpToolResult> {
  const params = new URLSearchParams({ query: args.query, format: 'json', size: String(args.size), fields: SEARCH_FIELDS });
  if (args.cursor !== undefined) params.set('cursor', requireUniprotCursor(args.cursor, 'cursor'));
  const response = await fetchJson(context.deps, `${context.base}/uniprotkb/search?${params}`, { provider: PROVIDER, signal });
  const entries = parseUniprotSearch(response.json);
  const total = Number.parseInt(response.headers.get('x-total-results') ?? '', 10);
  return envelope(uniprotManifest, 'search', context.deps, {
    records: entries.map(uniprotRecord),
    artifacts: entries.map((e) => uniprotFastaCandidate(e.accession, context.artifactBase)),
    data: {
      totalResults: Number.isFinite(total) ? total : null,
      nextCursor: cursorOf(nextLinkUrl(response.headers.get('link'))),
    },
  });
}

async function getUniprot(context: UniprotContext, raw: string, signal: AbortSignal): Promise<McpToolResult> {
  const asked = requireUniprotAccession(raw, 'accession');
  const response = await fetchJson(context.deps, `${context.base}/uniprotkb/${asked.accession}.json`, {
    provider: PROVIDER,
    signal,
  });
  const entry = parseUniprotEntry(response.json);
  if (entry.inactive) {
    const into = entry.inactive.mergedInto.length > 0 ? `; see ${entry.inactive.mergedInto.join(', ')}` : '';
    throw new ProviderError('not_found', `UniProtKB entry ${entry.accession} is inactive (${entry.inactive.reason})${into}`);
  }
  const fastaAccession = sameEntry(asked, entry) ? asked.accession : entry.accession;
  return envelope(uniprotManifest, 'get', context.deps, {
    records: [uniprotRecord(entry)],
    artifacts: [uniprotFastaCandidate(fastaAccession, context.artifactBase)],
    warnings: accessionWarnings(asked, entry),
  });
}

/** True when the entry is the one asked for, or the canonical entry of the isoform asked for. */
function sameEntry(asked: UniprotAccession, entry: UniprotEntry): boolean {
  return entry.accession === asked.accession || entry.accession === asked.base;
}

function accessionWarnings(asked: UniprotAccession, entry: UniprotEntry): string[] {
  if (entry.accession === asked.accession) return [];
  if (entry.accession === asked.base) {
    return [`UniProt answered isoform ${asked.accession} with its entry ${entry.accession}; the FASTA candidate is the isoform's sequence.`];
  }
  return [`${asked.accession} is not a primary accession; UniProt returned the current entry ${entry.accession}.`];
}

/** The next page's cursor, read from the `Link: <…>; rel="next"` URL (the body has no paging). */
function cursorOf(nextUrl: string | undefined): string | null {
  if (!nextUrl) return null;
  const cursor = new URL(nextUrl, DEFAULT_BASE_URL).searchParams.get('cursor');
  if (!cursor) throw new ProviderError('upstream_error', `${PROVIDER} sent a next-page link without a cursor`);
  return cursor;
}
