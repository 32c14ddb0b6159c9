import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { envelope } from '../shared/envelope.js';
import { fetchJson } from '../shared/fetchJson.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { pdbManifest } from './manifest.js';
import { pdbEndpoints, type PdbEndpoints } from './pdbHosts.js';
import { requirePdbId } from './pdbIds.js';
import { pdbEntriesQuery, pdbSearchRequest, type PdbSearchOptions } from './pdbQueries.js';
import { pdbCandidates, pdbRecord } from './pdbRecords.js';
import {
  parsePdbEntry,
  parsePdbGraphqlEntries,
  parsePdbPolymerEntity,
  parsePdbSearch,
  type PdbEntry,
  type PdbPolymerEntity,
} from './parsePdb.js';

const PROVIDER = 'RCSB PDB';
/** Ribosomes have dozens of entities; past this many a `get` lists ids only, so one call stays cheap. */
const MAX_POLYMER_ENTITIES = 20;

const searchInput = {
  query: z.string().trim().min(1).max(1000).describe('full-text query, e.g. "hemoglobin" or "spike glycoprotein"'),
  start: z.number().int().min(0).max(100_000).default(0).describe('0-based offset of the first result'),
  rows: z.number().int().min(1).max(100).default(25).describe('results per page, 1–100'),
};

const getInput = {
  id: z.string().trim().min(1).max(16).describe('PDB id, 4 characters, e.g. 4HHB (case-insensitive)'),
};

interface PdbContext {
  deps: SourceDeps;
  endpoints: PdbEndpoints;
}

/** The RCSB PDB source as an MCP server: `search` (Search API + Data API GraphQL) and `get` (Data API REST). */
export function createPdbServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-pdb', version: pdbManifest.version });
  const context: PdbContext = { deps, endpoints: pdbEndpoints(deps.baseUrl) };
  const [searchTool, getTool] = pdbManifest.tools;
  server.registerTool(
    'search',
    { title: searchTool!.title, description: searchTool!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchPdb(context, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: getTool!.title, description: getTool!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getPdb(context, args.id, extra.signal)),
  );
  return server;
}

async function searchPdb(context: PdbContext, args: PdbSearchOptions, signal: AbortSignal): Promise<McpToolResult> {
  const url = `${context.endpoints.search}?json=${encodeURIComponent(pdbSearchRequest(args))}`;
  // RCSB answers zero hits with 204 and no body.
  const response = await fetchJson(context.deps, url, { provider: PROVIDER, signal, passStatuses: [204] });
  const page = parsePdbSearch(response.json);
  const entries = page.hits.length > 0 ? await fetchSummaries(context, page.hits.map((h) => h.id), signal) : [];
  const byId = new Map(entries.map((e) => [e.rcsb_id.toUpperCase(), e]));
  const found = page.hits.flatMap((hit) => byId.get(hit.id) ?? []);
  const missing = page.hits.filter((hit) => !byId.has(hit.id)).map((hit) => hit.id);
  const next = args.start + page.hits.length;
  return envelope(pdbManifest, 'search', context.deps, {
    records: found.map((entry) => pdbRecord(entry)),
    artifacts: found.flatMap(pdbCandidates),
    warnings: missing.length > 0 ? [`RCSB returned no summary for ${missing.join(', ')}`] : [],
    data: {
      totalResults: page.totalCount,
      start: args.start,
      nextStart: page.hits.length > 0 && next < page.totalCount ? next : null,
      hits: page.hits,
    },
  });
}

/** One GraphQL request for a whole page of hits, instead of one Data API call per hit. */
async function fetchSummaries(context: PdbContext, ids: string[], signal: AbortSignal): Promise<PdbEntry[]> {
  const url = `${context.endpoints.graphql}?query=${encodeURIComponent(pdbEntriesQuery(ids))}`;
  const response = await fetchJson(context.deps, url, { provider: PROVIDER, signal });
  return parsePdbGraphqlEntries(response.json);
}

async function getPdb(context: PdbContext, raw: string, signal: AbortSignal): Promise<McpToolResult> {
  const id = requirePdbId(raw, 'id');
  const response = await fetchJson(context.deps, `${context.endpoints.core}/entry/${id}`, { provider: PROVIDER, signal });
  const entry = parsePdbEntry(response.json);
  const entityIds = entry.rcsb_entry_container_identifiers?.polymer_entity_ids ?? [];
  const warnings: string[] = [];
  if (entityIds.length > MAX_POLYMER_ENTITIES) {
    warnings.push(`${id} has ${entityIds.length} polymer entities; details are given for the first ${MAX_POLYMER_ENTITIES}.`);
  }
  const entities: PdbPolymerEntity[] = [];
  for (const entityId of entityIds.slice(0, MAX_POLYMER_ENTITIES)) {
    const entity = await fetchJson(context.deps, `${context.endpoints.core}/polymer_entity/${id}/${encodeURIComponent(entityId)}`, {
      provider: PROVIDER,
      signal,
      passStatuses: [404],
    });
    if (entity.status === 404) warnings.push(`RCSB has no polymer entity ${id}_${entityId}`);
    else entities.push(parsePdbPolymerEntity(entity.json));
  }
  return envelope(pdbManifest, 'get', context.deps, {
    records: [pdbRecord(entry, entities)],
    artifacts: pdbCandidates(entry),
    warnings,
  });
}
