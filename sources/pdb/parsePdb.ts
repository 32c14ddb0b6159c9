import { z } from 'zod';
import { ProviderError } from '../shared/providerError.js';
import { parseShape } from '../shared/parseShape.js';

const PROVIDER = 'RCSB PDB';
// GraphQL answers null for absent fields where REST omits them; both must read the same.
const text = z.string().nullish();
const num = z.number().nullish();

const citationSchema = z.object({
  title: text,
  rcsb_authors: z.array(z.string()).nullish(),
  year: num,
  rcsb_journal_abbrev: text,
  journal_abbrev: text,
  journal_volume: text,
  page_first: text,
  page_last: text,
  pdbx_database_id_doi: text,
  pdbx_database_id_pub_med: num,
});

const entrySchema = z.object({
  rcsb_id: z.string().min(1),
  struct: z.object({ title: text }).nullish(),
  struct_keywords: z.object({ pdbx_keywords: text }).nullish(),
  exptl: z.array(z.object({ method: z.string() })).nullish(),
  rcsb_entry_info: z
    .object({
      resolution_combined: z.array(z.number()).nullish(),
      polymer_composition: text,
      molecular_weight: num,
      deposited_polymer_entity_instance_count: num,
    })
    .nullish(),
  rcsb_accession_info: z.object({ initial_release_date: text, deposit_date: text, revision_date: text }).nullish(),
  rcsb_primary_citation: citationSchema.nullish(),
  pdbx_database_status: z.object({ pdb_format_compatible: text }).nullish(),
  rcsb_entry_container_identifiers: z.object({ polymer_entity_ids: z.array(z.string()).nullish() }).nullish(),
});

const polymerEntitySchema = z.object({
  rcsb_id: z.string().min(1),
  entity_poly: z
    .object({ type: text, rcsb_entity_polymer_type: text, pdbx_strand_id: text, rcsb_sample_sequence_length: num })
    .nullish(),
  rcsb_polymer_entity: z.object({ pdbx_description: text, formula_weight: num, pdbx_number_of_molecules: num }).nullish(),
  rcsb_polymer_entity_container_identifiers: z
    .object({ entity_id: text, auth_asym_ids: z.array(z.string()).nullish(), uniprot_ids: z.array(z.string()).nullish() })
    .nullish(),
  rcsb_entity_source_organism: z
    .array(z.object({ ncbi_scientific_name: text, ncbi_taxonomy_id: num }))
    .nullish(),
});

const searchSchema = z.object({
  total_count: z.number().int().min(0),
  result_set: z.array(z.object({ identifier: z.string().min(1), score: num })),
});

const graphqlSchema = z.object({
  data: z.object({ entries: z.array(entrySchema.nullable()).nullish() }).nullish(),
  errors: z.array(z.object({ message: z.string() })).nullish(),
});

/** One PDB entry as the Data API describes it (REST `core/entry` or the same fields over GraphQL). */
export type PdbEntry = z.output<typeof entrySchema>;
/** One polymer entity (`core/polymer_entity/{id}/{n}`). */
export type PdbPolymerEntity = z.output<typeof polymerEntitySchema>;

/** One Search API page: RCSB's total and the ids of this page with their scores. */
export interface PdbSearchPage {
  totalCount: number;
  hits: Array<{ id: string; score: number | null }>;
}

/** Parses `core/entry/{id}`. */
export function parsePdbEntry(json: unknown): PdbEntry {
  return parseShape(entrySchema, json, PROVIDER, 'entry');
}

/** Parses `core/polymer_entity/{id}/{n}`. */
export function parsePdbPolymerEntity(json: unknown): PdbPolymerEntity {
  return parseShape(polymerEntitySchema, json, PROVIDER, 'polymer entity');
}

/** Parses a Search API answer; `undefined` (HTTP 204, no body) is RCSB's way of saying "no hits". */
export function parsePdbSearch(json: unknown): PdbSearchPage {
  if (json === undefined) return { totalCount: 0, hits: [] };
  const page = parseShape(searchSchema, json, PROVIDER, 'search result');
  return {
    totalCount: page.total_count,
    hits: page.result_set.map((hit) => ({ id: hit.identifier.toUpperCase(), score: hit.score ?? null })),
  };
}

/** Parses a GraphQL `entries(entry_ids: …)` answer; GraphQL errors without data are provider errors. */
export function parsePdbGraphqlEntries(json: unknown): PdbEntry[] {
  const answer = parseShape(graphqlSchema, json, PROVIDER, 'GraphQL answer');
  const entries = answer.data?.entries;
  if (!entries) {
    const reason = answer.errors?.map((e) => e.message).join('; ') || 'no data';
    throw new ProviderError('upstream_error', `${PROVIDER} GraphQL failed: ${reason}`);
  }
  return entries.filter((e): e is PdbEntry => e !== null);
}
