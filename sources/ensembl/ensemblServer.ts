import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { artifactBaseUrl } from '../shared/artifactBaseUrl.js';
import { envelope } from '../shared/envelope.js';
import { describeJsonError, fetchJson } from '../shared/fetchJson.js';
import { ProviderError, boundProviderText } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { requireEnsemblId, requireSpecies, requireSymbol } from './ensemblIds.js';
import {
  MAX_INLINE_SEQUENCE_CHARS,
  ensemblFastaCandidate,
  ensemblLookupRecord,
  ensemblSequenceRecord,
} from './ensemblRecords.js';
import { ensemblManifest } from './manifest.js';
import { parseEnsemblLookup, parseEnsemblSequences } from './parseEnsembl.js';

const PROVIDER = 'Ensembl';
const DEFAULT_BASE_URL = 'https://rest.ensembl.org';
/** Ensembl's wording for an unknown id ("ID 'X' not found") or symbol ("No valid lookup found …"). */
const NOT_FOUND = /not found|no valid lookup/i;

const searchInput = {
  symbol: z.string().trim().min(1).max(64).describe('gene symbol, e.g. BRCA2'),
  species: z.string().trim().min(1).max(80).default('homo_sapiens').describe('Ensembl species, e.g. homo_sapiens, mus_musculus'),
  expand: z.boolean().default(false).describe('include transcripts and exons'),
};
const getInput = {
  id: z.string().trim().min(1).max(40).describe('Ensembl stable id, e.g. ENSG00000139618 or ENSP00000419060.2'),
  expand: z.boolean().default(false).describe('include transcripts and exons'),
};
const sequenceInput = {
  id: z.string().trim().min(1).max(40).describe('Ensembl stable id of a gene, transcript, protein or exon'),
  type: z.enum(['genomic', 'cdna', 'cds', 'protein']).optional().describe('sequence type; Ensembl defaults to genomic (protein for a protein id)'),
};

interface EnsemblContext {
  deps: SourceDeps;
  base: string;
  artifactBase: string;
}

/** The Ensembl source as an MCP server: `search` (symbol lookup), `get` (stable id lookup) and `sequence`. */
export function createEnsemblServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-ensembl', version: ensemblManifest.version });
  const context: EnsemblContext = {
    deps,
    base: (deps.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    artifactBase: artifactBaseUrl(deps.baseUrl, DEFAULT_BASE_URL, ensemblManifest.allowedDomains),
  };
  const [searchTool, getTool, sequenceTool] = ensemblManifest.tools;
  const describe = (tool: typeof searchTool) => ({ title: tool!.title, description: tool!.description });
  server.registerTool('search', { ...describe(searchTool), inputSchema: searchInput }, (args, extra) =>
    runTool(() => searchEnsembl(context, args, extra.signal)),
  );
  server.registerTool('get', { ...describe(getTool), inputSchema: getInput }, (args, extra) =>
    runTool(() => getEnsembl(context, args, extra.signal)),
  );
  server.registerTool('sequence', { ...describe(sequenceTool), inputSchema: sequenceInput }, (args, extra) =>
    runTool(() => sequenceEnsembl(context, args, extra.signal)),
  );
  return server;
}

async function searchEnsembl(
  context: EnsemblContext,
  args: { symbol: string; species: string; expand: boolean },
  signal: AbortSignal,
): Promise<McpToolResult> {
  const species = requireSpecies(args.species, 'species');
  const symbol = requireSymbol(args.symbol, 'symbol');
  const path = `lookup/symbol/${encodeURIComponent(species)}/${encodeURIComponent(symbol)}`;
  try {
    const json = await ensemblGet(context, path, { expand: args.expand ? '1' : '0' }, signal);
    return envelope(ensemblManifest, 'search', context.deps, { records: [ensemblLookupRecord(parseEnsemblLookup(json))] });
  } catch (error) {
    // An unknown symbol is an empty search, not a failure.
    if (!(error instanceof ProviderError) || error.code !== 'not_found') throw error;
    return envelope(ensemblManifest, 'search', context.deps, { records: [], warnings: [error.message] });
  }
}

async function getEnsembl(context: EnsemblContext, args: { id: string; expand: boolean }, signal: AbortSignal): Promise<McpToolResult> {
  const id = requireEnsemblId(args.id, 'id');
  const json = await ensemblGet(context, `lookup/id/${id.id}`, { expand: args.expand ? '1' : '0' }, signal);
  return envelope(ensemblManifest, 'get', context.deps, { records: [ensemblLookupRecord(parseEnsemblLookup(json))] });
}

async function sequenceEnsembl(context: EnsemblContext, args: { id: string; type?: string }, signal: AbortSignal): Promise<McpToolResult> {
  const id = requireEnsemblId(args.id, 'id');
  const params: Record<string, string> = { multiple_sequences: '1', ...(args.type ? { type: args.type } : {}) };
  const sequences = parseEnsemblSequences(await ensemblGet(context, `sequence/id/${id.id}`, params, signal));
  if (sequences.length === 0) throw noSequence(id.id, args.type);
  const typed = sequences.map((s) => ({ sequence: s, type: args.type ?? (s.molecule === 'protein' ? 'protein' : 'genomic') }));
  const long = sequences.filter((s) => s.seq.length > MAX_INLINE_SEQUENCE_CHARS).map((s) => s.id);
  return envelope(ensemblManifest, 'sequence', context.deps, {
    records: typed.map((t) => ensemblSequenceRecord(t.sequence, t.type)),
    artifacts: typed.map((t) => ensemblFastaCandidate(t.sequence, t.type, context.artifactBase)),
    warnings: long.length > 0 ? [`Sequences of ${long.join(', ')} are too long to inline; download the FASTA candidates.`] : [],
  });
}

/**
 * A 200 answer of `[]` holds no sequence for the id: reported as not_found, as Ensembl's own 400
 * "ID not found" is, since an OK result with no records and no warning tells the caller nothing.
 */
function noSequence(id: string, type: string | undefined): ProviderError {
  const what = type ? `${type} sequence` : 'sequence';
  const coding = type === 'cds' || type === 'protein';
  const hint = coding ? '; if the id is non-coding it has no cds or protein, try type genomic or cdna' : '';
  return new ProviderError('not_found', `${PROVIDER} has no ${what} for ${id}${hint}`);
}

/**
 * GETs an Ensembl JSON endpoint. Ensembl answers an unknown id or symbol with HTTP 400 and
 * `{"error": "ID '…' not found"}`, so a 400 is read: "not found" → `not_found`, else `invalid_input`.
 */
async function ensemblGet(context: EnsemblContext, path: string, params: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  // content-type in the query: without it some endpoints answer text or HTML.
  const query = new URLSearchParams({ ...params, 'content-type': 'application/json' });
  const response = await fetchJson(context.deps, `${context.base}/${path}?${query}`, {
    provider: PROVIDER,
    signal,
    passStatuses: [400],
  });
  if (response.status !== 400) return response.json;
  const reason = boundProviderText(describeJsonError(response.body) || 'bad request');
  if (NOT_FOUND.test(reason)) throw new ProviderError('not_found', `${PROVIDER}: ${reason} (HTTP 400)`);
  throw new ProviderError('invalid_input', `${PROVIDER} rejected the request (HTTP 400): ${reason}`);
}
