import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { artifactBaseUrl } from '../shared/artifactBaseUrl.js';
import { envelope } from '../shared/envelope.js';
import { fetchJson } from '../shared/fetchJson.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { requireChemblCursor, requireChemblId } from './chemblIds.js';
import { chemblRecord, chemblSdfCandidate } from './chemblRecords.js';
import { chemblManifest } from './manifest.js';
import { parseChemblMechanismPage, parseChemblMolecule, parseChemblMoleculePage, type ChemblMolecule } from './parseChembl.js';

const PROVIDER = 'ChEMBL';
const DEFAULT_BASE_URL = 'https://www.ebi.ac.uk/chembl/api/data';
/** More mechanisms than this for one molecule is unheard of; the count is warned about if it happens. */
const MECHANISM_LIMIT = 100;

const searchInput = {
  query: z.string().trim().min(1).max(500).describe('molecule name or synonym, e.g. "aspirin"'),
  limit: z.number().int().min(1).max(1000).default(20).describe('results per page, 1–1000 (ChEMBL’s maximum)'),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe('0-based offset of the first result'),
  cursor: z.string().max(1000).optional().describe('data.nextCursor of the previous page (overrides limit and offset)'),
};

const getInput = {
  id: z.string().trim().min(1).max(32).describe('ChEMBL molecule id, e.g. CHEMBL25'),
};

interface ChemblContext {
  deps: SourceDeps;
  base: string;
  /** Scheme and host of the base: ChEMBL's `next` links are host-relative paths. */
  origin: string;
  apiPath: string;
  artifactBase: string;
}

type SearchArgs = { query: string; limit: number; offset: number; cursor?: string };

/** The ChEMBL source as an MCP server: `search` and `get` over the ChEMBL data web services. */
export function createChemblServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-chembl', version: chemblManifest.version });
  const base = (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const context: ChemblContext = {
    deps,
    base,
    ...locationOf(base),
    artifactBase: artifactBaseUrl(deps.baseUrl, DEFAULT_BASE_URL, chemblManifest.allowedDomains),
  };
  const [searchTool, getTool] = chemblManifest.tools;
  server.registerTool(
    'search',
    { title: searchTool!.title, description: searchTool!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchChembl(context, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: getTool!.title, description: getTool!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getChembl(context, args.id, extra.signal)),
  );
  return server;
}

async function searchChembl(context: ChemblContext, args: SearchArgs, signal: AbortSignal): Promise<McpToolResult> {
  const url = args.cursor !== undefined ? cursorUrl(context, args) : firstPageUrl(context, args);
  const response = await fetchJson(context.deps, url, { provider: PROVIDER, signal });
  const page = parseChemblMoleculePage(response.json);
  return envelope(chemblManifest, 'search', context.deps, {
    records: page.items.map((m) => chemblRecord(m)),
    artifacts: candidatesOf(context, page.items),
    data: {
      totalCount: page.totalCount,
      offset: page.offset,
      limit: page.limit,
      nextCursor: page.next ? relativePath(context, page.next) : null,
    },
  });
}

/** Origin and path of the base; an unparsable override fails each request (as in other sources), not the server. */
function locationOf(base: string): { origin: string; apiPath: string } {
  try {
    const url = new URL(base);
    return { origin: url.origin, apiPath: url.pathname.replace(/\/+$/, '') };
  } catch {
    return { origin: base, apiPath: '' };
  }
}

function firstPageUrl(context: ChemblContext, args: SearchArgs): string {
  const params = new URLSearchParams({ q: args.query, limit: String(args.limit), offset: String(args.offset) });
  return `${context.base}/molecule/search.json?${params}`;
}

/** Follows ChEMBL's own `next` link (relative to the host), after checking it is a search page of this query. */
function cursorUrl(context: ChemblContext, args: SearchArgs): string {
  const params = requireChemblCursor(args.cursor!, { apiPath: context.apiPath, query: args.query, field: 'cursor' });
  return `${context.origin}${context.apiPath}/molecule/search.json?${params}`;
}

/** `next` as a host-relative path (ChEMBL sends one already; an absolute link is reduced to its path). */
function relativePath(context: ChemblContext, next: string): string {
  const url = new URL(next, context.origin);
  return `${url.pathname}${url.search}`;
}

async function getChembl(context: ChemblContext, raw: string, signal: AbortSignal): Promise<McpToolResult> {
  const id = requireChemblId(raw, 'id');
  const molecule = parseChemblMolecule(await getJson(context, `molecule/${id}.json`, signal));
  const params = new URLSearchParams({ molecule_chembl_id: id, limit: String(MECHANISM_LIMIT) });
  const mechanisms = parseChemblMechanismPage(await getJson(context, `mechanism.json?${params}`, signal));
  const more = mechanisms.totalCount !== null && mechanisms.totalCount > mechanisms.items.length;
  return envelope(chemblManifest, 'get', context.deps, {
    records: [chemblRecord(molecule, mechanisms.items)],
    artifacts: candidatesOf(context, [molecule]),
    warnings: more ? [`${id} has ${mechanisms.totalCount} mechanisms; the first ${mechanisms.items.length} are shown.`] : [],
  });
}

async function getJson(context: ChemblContext, path: string, signal: AbortSignal): Promise<unknown> {
  return (await fetchJson(context.deps, `${context.base}/${path}`, { provider: PROVIDER, signal })).json;
}

function candidatesOf(context: ChemblContext, molecules: ChemblMolecule[]) {
  return molecules.flatMap((m) => chemblSdfCandidate(m, context.artifactBase) ?? []);
}
