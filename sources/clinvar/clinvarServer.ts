import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpToolResult } from '../../catalog/index.js';
import { createEutilsClient, type EutilsClient } from '../shared/eutilsClient.js';
import { envelope } from '../shared/envelope.js';
import { ProviderError } from '../shared/providerError.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { runTool } from '../shared/toolResponses.js';
import { requireClinvarId, type ClinvarVariationRef } from './clinvarIds.js';
import { clinvarRecord } from './clinvarRecords.js';
import type { ClinvarVariant } from './clinvarVariant.js';
import { clinvarManifest } from './manifest.js';
import { parseClinvarSummary } from './parseClinvarSummary.js';
import { parseVariationArchives } from './parseVariationArchive.js';

/** HGNC symbols and their aliases: letters, digits, dash, dot, underscore. */
const GENE_SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

const searchInput = {
  query: z.string().trim().max(2000).optional().describe('free query, ClinVar field tags allowed, e.g. "BRCA1[gene] AND pathogenic[clnsig]"'),
  gene: z.string().trim().max(40).optional().describe('gene symbol, e.g. BRCA1'),
  condition: z.string().trim().max(300).optional().describe('condition or phenotype name, e.g. "Lynch syndrome"'),
  variant: z.string().trim().max(300).optional().describe('variant text: HGVS ("NM_007294.4:c.5266dupC"), protein change or rsID'),
  start: z.number().int().min(0).max(100_000).default(0).describe('0-based offset'),
  maxResults: z.number().int().min(1).max(100).default(20).describe('results per page, 1–100'),
};

const getInput = {
  ids: z.array(z.string().trim().min(1).max(32)).min(1).max(20).describe('VCV accessions or Variation IDs, e.g. ["VCV000000002", "14206"]'),
};

type SearchArgs = { query?: string; gene?: string; condition?: string; variant?: string; start: number; maxResults: number };

/** The ClinVar source as an MCP server: `search` (ESearch + ESummary) and `get` (EFetch VCV XML). */
export function createClinvarServer(deps: SourceDeps): McpServer {
  const server = new McpServer({ name: 'scigate-clinvar', version: clinvarManifest.version });
  const eutils = createEutilsClient(deps, { db: 'clinvar', provider: 'ClinVar' });
  server.registerTool(
    'search',
    { title: 'Search ClinVar', description: clinvarManifest.tools[0]!.description, inputSchema: searchInput },
    (args, extra) => runTool(() => searchClinvar(deps, eutils, args, extra.signal)),
  );
  server.registerTool(
    'get',
    { title: 'Get ClinVar variations', description: clinvarManifest.tools[1]!.description, inputSchema: getInput },
    (args, extra) => runTool(() => getClinvar(deps, eutils, args.ids, extra.signal)),
  );
  return server;
}

async function searchClinvar(deps: SourceDeps, eutils: EutilsClient, args: SearchArgs, signal: AbortSignal): Promise<McpToolResult> {
  const term = searchTerm(args);
  const page = await eutils.esearch({ term, retstart: args.start, retmax: args.maxResults }, signal);
  const summaries = page.ids.length > 0 ? await eutils.esummary(page.ids, signal) : { docs: [], missing: [] };
  const variants = summaries.docs.map(parseClinvarSummary);
  const next = page.retstart + page.ids.length;
  return envelope(clinvarManifest, 'search', deps, {
    records: variants.map(clinvarRecord),
    warnings: [
      ...page.warnings,
      ...(summaries.missing.length > 0 ? [`ClinVar had no summary for Variation ID ${summaries.missing.join(', ')}`] : []),
    ],
    data: {
      count: page.count,
      start: page.retstart,
      nextStart: page.ids.length > 0 && next < page.count ? next : null,
      term,
      queryTranslation: page.queryTranslation ?? null,
    },
  });
}

async function getClinvar(deps: SourceDeps, eutils: EutilsClient, rawIds: string[], signal: AbortSignal): Promise<McpToolResult> {
  const asked = rawIds.map((raw, i) => requireClinvarId(raw, `ids[${i}]`));
  const refs = uniqueRefs(asked);
  // Without is_variationid, EFetch reads the ids as something else and answers an empty set.
  const root = await eutils.efetch({ rettype: 'vcv', is_variationid: 'true', id: refs.map((r) => r.variationId).join(',') }, signal);
  const variants = parseVariationArchives(root);
  const found = refs.map((ref) => variants.find((v) => v.variationId === ref.variationId)).filter((v): v is ClinvarVariant => !!v);
  return envelope(clinvarManifest, 'get', deps, {
    records: found.map(clinvarRecord),
    warnings: getWarnings(asked, variants),
  });
}

/** Gene, condition and variant become field-tagged terms, ANDed with the free query; one of them is required. */
function searchTerm(args: Omit<SearchArgs, 'start' | 'maxResults'>): string {
  if (args.gene && !GENE_SYMBOL.test(args.gene)) {
    throw new ProviderError('invalid_input', `gene: "${args.gene.slice(0, 40)}" is not a gene symbol (e.g. BRCA1)`);
  }
  // Quotes delimit ClinVar phrases; one inside a value would end the phrase early.
  const phrase = (value?: string) => value?.replace(/"/g, ' ').trim() || undefined;
  const condition = phrase(args.condition);
  const variant = phrase(args.variant);
  const parts = [
    args.query ? `(${args.query})` : undefined,
    args.gene ? `${args.gene}[gene]` : undefined,
    condition ? `"${condition}"[dis]` : undefined,
    variant ? `"${variant}"` : undefined,
  ].filter((p): p is string => p !== undefined);
  if (parts.length === 0) throw new ProviderError('invalid_input', 'query: give a query, gene, condition or variant');
  return parts.join(' AND ');
}

function uniqueRefs(refs: ClinvarVariationRef[]): ClinvarVariationRef[] {
  return refs.filter((ref, i) => refs.findIndex((r) => r.variationId === ref.variationId) === i);
}

function getWarnings(refs: ClinvarVariationRef[], variants: ClinvarVariant[]): string[] {
  const warnings: string[] = [];
  const missing = uniqueRefs(refs.filter((r) => !variants.some((v) => v.variationId === r.variationId))).map((r) => r.accession);
  if (missing.length > 0) warnings.push(`ClinVar has no variation ${missing.join(', ')}`);
  for (const ref of refs) {
    const current = variants.find((v) => v.variationId === ref.variationId)?.version;
    if (ref.version && current && ref.version !== current) {
      warnings.push(`${ref.accession}.${ref.version} was asked for; ClinVar serves only the current version ${ref.accession}.${current}`);
    }
  }
  return warnings;
}
