import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ArtifactCandidate, McpToolResult } from '../../catalog/index.js';
import { createEutilsClient, type EutilsClient } from '../shared/eutilsClient.js';
import { envelope } from '../shared/envelope.js';
import { ProviderError } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { secondaryBaseUrl } from '../shared/secondaryBaseUrl.js';
import { accessionOfUid, requireGeoAccession, type GeoAccession } from './geoIds.js';
import { geoRecord, geoStandardFiles } from './geoRecords.js';
import { GEO_QUERY_BASE_URL, fetchSupplementaryFiles } from './geoSoft.js';
import { geoManifest } from './manifest.js';
import { parseGeoSummary, type GeoSummary } from './parseGeoSummary.js';

/** Each supplementary-file listing is one more NCBI request; past this many records `get` says so instead. */
const MAX_FILE_LISTINGS = 5;
const ORGANISM = /^[A-Za-z][A-Za-z0-9 .()'-]{1,99}$/;

const searchInput = {
  query: z.string().trim().min(1).max(2000).describe('GEO query, e.g. "single cell[All Fields] AND hypothalamus"'),
  entryType: z.enum(['gse', 'gsm', 'gpl', 'gds']).optional().describe('only series, samples, platforms or datasets'),
  organism: z.string().trim().max(100).optional().describe('scientific name, e.g. "Mus musculus"'),
  start: z.number().int().min(0).max(100_000).default(0).describe('0-based offset'),
  maxResults: z.number().int().min(1).max(100).default(20).describe('results per page, 1–100'),
};

const getInput = {
  accessions: z.array(z.string().trim().min(1).max(16)).min(1).max(20).describe('GEO accessions, e.g. ["GSE93374", "GSM2452128"]'),
  files: z.boolean().default(true).describe('list supplementary files of series and samples (one extra request each)'),
};

type SearchArgs = { query: string; entryType?: string; organism?: string; start: number; maxResults: number };

/** The GEO source as an MCP server: `search` and `get`. */
export function createGeoServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-geo', version: geoManifest.version });
  const eutils = createEutilsClient(deps, { db: 'gds', provider: 'GEO' });
  server.registerTool(
    'search',
    { title: 'Search GEO', description: geoManifest.tools[0]!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchGeo(deps, eutils, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: 'Get GEO records by accession', description: geoManifest.tools[1]!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getGeo(deps, eutils, args, extra.signal)),
  );
  return server;
}

async function searchGeo(deps: SourceDeps, eutils: EutilsClient, args: SearchArgs, signal: AbortSignal): Promise<McpToolResult> {
  const term = searchTerm(args);
  const page = await eutils.esearch({ term, retstart: args.start, retmax: args.maxResults }, signal);
  const summaries = page.ids.length > 0 ? await eutils.esummary(page.ids, signal) : { docs: [], missing: [] };
  const records = summaries.docs.map(parseGeoSummary).filter((s): s is GeoSummary => s !== undefined);
  const next = page.retstart + page.ids.length;
  return envelope(geoManifest, 'search', deps, {
    records: records.map(geoRecord),
    artifacts: records.flatMap(geoStandardFiles),
    warnings: [...page.warnings, ...missingWarning(summaries.missing.map((uid) => accessionOfUid(uid) ?? uid))],
    data: { count: page.count, start: page.retstart, nextStart: page.ids.length > 0 && next < page.count ? next : null, term },
  });
}

async function getGeo(
  deps: SourceDeps,
  eutils: EutilsClient,
  args: { accessions: string[]; files: boolean },
  signal: AbortSignal,
): Promise<McpToolResult> {
  const asked = unique(args.accessions.map((raw, i) => requireGeoAccession(raw, `accessions[${i}]`)));
  const { docs } = await eutils.esummary(asked.map((a) => a.uid), signal);
  const summaries = docs.map(parseGeoSummary).filter((s): s is GeoSummary => s !== undefined);
  // ESummary answers by uid; a uid that maps to another accession would be a different record.
  const found = asked.map((a) => summaries.find((s) => s.accession.accession === a.accession)).filter((s): s is GeoSummary => !!s);
  const files = args.files ? await supplementaryFiles(deps, found, signal) : { candidates: [], warnings: [], failed: false };
  const missing = asked.filter((a) => !found.some((s) => s.accession.accession === a.accession)).map((a) => a.accession);
  return envelope(geoManifest, 'get', deps, {
    records: found.map(geoRecord),
    artifacts: [...found.flatMap(geoStandardFiles), ...files.candidates],
    warnings: [...missingWarning(missing), ...files.warnings],
    partial: files.failed,
  });
}

/** Entry type and organism become field tags ANDed with the query; both are checked before any request. */
function searchTerm(args: SearchArgs): string {
  if (args.organism && !ORGANISM.test(args.organism)) {
    throw new ProviderError('invalid_input', `organism: "${args.organism.slice(0, 40)}" is not an organism name (e.g. Homo sapiens)`);
  }
  return [`(${args.query})`, args.entryType ? `${args.entryType}[ETYP]` : '', args.organism ? `"${args.organism}"[ORGN]` : '']
    .filter(Boolean)
    .join(' AND ');
}

/** Supplementary files are a bonus: a failed listing becomes a warning (and a partial result), never a failed `get`. */
async function supplementaryFiles(deps: SourceDeps, found: GeoSummary[], signal: AbortSignal) {
  const listable = found.filter((s) => ['GSE', 'GSM'].includes(s.accession.type) && s.supplementaryTypes.length > 0);
  const candidates: ArtifactCandidate[] = [];
  const warnings: string[] = [];
  let failed = false;
  const baseUrl = secondaryBaseUrl(deps, 'GEO_QUERY_BASE_URL', GEO_QUERY_BASE_URL);
  if (!baseUrl) {
    const skipped = listable.length > 0 ? ['Supplementary files were not listed: the E-utilities base URL is overridden and GEO_QUERY_BASE_URL is not set.'] : [];
    return { candidates, warnings: skipped, failed: false };
  }
  for (const summary of listable.slice(0, MAX_FILE_LISTINGS)) {
    try {
      candidates.push(...(await fetchSupplementaryFiles(deps, { accession: summary.accession, baseUrl }, signal)));
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      warnings.push(`Could not list the supplementary files of ${summary.accession.accession}: ${reason}`);
      failed = true;
    }
  }
  if (listable.length > MAX_FILE_LISTINGS) {
    warnings.push(`Supplementary files were listed for the first ${MAX_FILE_LISTINGS} records only; ask for the rest separately.`);
  }
  return { candidates, warnings, failed };
}

function unique(accessions: GeoAccession[]): GeoAccession[] {
  return accessions.filter((a, i) => accessions.findIndex((b) => b.accession === a.accession) === i);
}

function missingWarning(accessions: string[]): string[] {
  return accessions.length > 0 ? [`GEO has no public record ${accessions.join(', ')}`] : [];
}
