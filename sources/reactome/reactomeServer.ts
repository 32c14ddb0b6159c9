import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { artifactBaseUrl } from '../shared/artifactBaseUrl.js';
import { envelope } from '../shared/envelope.js';
import { fetchJson } from '../shared/fetchJson.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { reactomeManifest } from './manifest.js';
import { parseReactomeObject, parseReactomeParticipants, parseReactomeSearch } from './parseReactome.js';
import { requireReactomeId } from './reactomeIds.js';
import { reactomeExportCandidates, reactomeRecord, reactomeSearchRecord } from './reactomeRecords.js';

const PROVIDER = 'Reactome';
const DEFAULT_BASE_URL = 'https://reactome.org/ContentService';

const searchInput = {
  query: z.string().trim().min(1).max(500).describe('search text, e.g. "MAPK signaling"'),
  species: z.string().trim().min(1).max(80).default('Homo sapiens').describe('species name or taxon id, e.g. Homo sapiens or 9606'),
  types: z
    .array(z.enum(['Pathway', 'Reaction']))
    .min(1)
    .default(['Pathway', 'Reaction'])
    .describe('record types to search'),
  start: z.number().int().min(0).max(10_000).default(0).describe('0-based offset within each type group'),
  rows: z.number().int().min(1).max(100).default(25).describe('results per type group, 1–100'),
};

const getInput = {
  id: z.string().trim().min(1).max(32).describe('Reactome stable id, e.g. R-HSA-5673001 or R-HSA-5673001.8'),
};

interface ReactomeContext {
  deps: SourceDeps;
  base: string;
  artifactBase: string;
}

type SearchArgs = { query: string; species: string; types: string[]; start: number; rows: number };

/** The Reactome source as an MCP server: `search` and `get` over ContentService. */
export function createReactomeServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-reactome', version: reactomeManifest.version });
  const context: ReactomeContext = {
    deps,
    base: (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    artifactBase: artifactBaseUrl(deps.baseUrl, DEFAULT_BASE_URL, reactomeManifest.allowedDomains),
  };
  const [searchTool, getTool] = reactomeManifest.tools;
  server.registerTool(
    'search',
    { title: searchTool!.title, description: searchTool!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchReactome(context, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: getTool!.title, description: getTool!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getReactome(context, args.id, extra.signal)),
  );
  return server;
}

async function searchReactome(context: ReactomeContext, args: SearchArgs, signal: AbortSignal): Promise<McpToolResult> {
  const params = new URLSearchParams({
    query: args.query,
    species: args.species,
    types: args.types.join(','),
    cluster: 'true',
    start: String(args.start),
    rows: String(args.rows),
  });
  // ContentService answers "no hits" with 404 ("No entries found for query"), not an empty list.
  const response = await fetchJson(context.deps, `${context.base}/search/query?${params}`, {
    provider: PROVIDER,
    signal,
    passStatuses: [404],
  });
  if (response.status === 404) {
    return envelope(reactomeManifest, 'search', context.deps, {
      records: [],
      data: { totalResults: 0, start: args.start, nextStart: null },
    });
  }
  const page = parseReactomeSearch(response.json);
  const records = page.entries.flatMap((entry) => reactomeSearchRecord(entry) ?? []);
  const next = args.start + args.rows;
  return envelope(reactomeManifest, 'search', context.deps, {
    records,
    data: { totalResults: page.totalMatches, start: args.start, nextStart: next < page.largestGroup ? next : null },
  });
}

async function getReactome(context: ReactomeContext, raw: string, signal: AbortSignal): Promise<McpToolResult> {
  const asked = requireReactomeId(raw, 'id');
  // ContentService looks objects up by unversioned stable id; the version asked for is checked after.
  const response = await fetchJson(context.deps, `${context.base}/data/query/${asked.base}`, { provider: PROVIDER, signal });
  const object = parseReactomeObject(response.json);
  const participants = await fetchJson(context.deps, `${context.base}/data/participants/${asked.base}`, {
    provider: PROVIDER,
    signal,
    passStatuses: [404],
  });
  const participantsCount = participants.status === 404 ? null : parseReactomeParticipants(participants.json);
  const warnings: string[] = [];
  if (asked.version !== undefined && object.stIdVersion && object.stIdVersion !== asked.id) {
    warnings.push(`Reactome serves ${object.stIdVersion}, not the requested version ${asked.id}.`);
  }
  return envelope(reactomeManifest, 'get', context.deps, {
    records: [reactomeRecord(object, participantsCount)],
    artifacts: reactomeExportCandidates(object, context.artifactBase),
    warnings,
  });
}
