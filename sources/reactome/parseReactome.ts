import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';

const PROVIDER = 'Reactome';
const text = z.string().nullish();
const num = z.number().nullish();

const entrySchema = z.object({
  stId: text,
  id: text,
  dbId: z.union([z.string(), z.number()]).nullish(),
  name: z.string(),
  exactType: text,
  species: z.array(z.string()).nullish(),
  summation: text,
});

const searchSchema = z.object({
  results: z.array(z.object({ typeName: text, entriesCount: num, entries: z.array(entrySchema) })),
  numberOfMatches: num,
});

const literatureSchema = z.object({
  displayName: text,
  title: text,
  journal: text,
  year: num,
  pubMedIdentifier: num,
  url: text,
  author: z.array(z.object({ displayName: text })).nullish(),
});

const eventSchema = z.object({
  stId: z.string().min(1),
  stIdVersion: text,
  dbId: num,
  displayName: z.string().min(1),
  schemaClass: text,
  speciesName: text,
  releaseDate: text,
  doi: text,
  isInDisease: z.boolean().nullish(),
  isInferred: z.boolean().nullish(),
  summation: z.array(z.object({ text: text })).nullish(),
  literatureReference: z.array(literatureSchema).nullish(),
  hasEvent: z.array(z.unknown()).nullish(),
  input: z.array(z.unknown()).nullish(),
  output: z.array(z.unknown()).nullish(),
});

/** One search hit; `name` still carries Solr highlighting markup. */
export type ReactomeSearchEntry = z.output<typeof entrySchema> & { typeName?: string | null };
/** A `data/query/{stId}` answer (Pathway, Reaction or any other class). */
export type ReactomeObject = z.output<typeof eventSchema>;

/** One search page: its hits across the type groups, and the group sizes. */
export interface ReactomeSearchPage {
  entries: ReactomeSearchEntry[];
  /** Largest group size: paging by `start` continues while a group has more. */
  largestGroup: number;
  totalMatches: number | null;
}

/** Parses `search/query` (hits grouped by type: `results[].entries[]`). */
export function parseReactomeSearch(json: unknown): ReactomeSearchPage {
  const page = parseShape(searchSchema, json, PROVIDER, 'search result');
  const entries = page.results.flatMap((group) => group.entries.map((e) => ({ ...e, typeName: group.typeName })));
  const sizes = page.results.map((group) => group.entriesCount ?? group.entries.length);
  return {
    entries,
    largestGroup: Math.max(0, ...sizes),
    totalMatches: page.numberOfMatches ?? (sizes.length > 0 ? sizes.reduce((a, b) => a + b, 0) : null),
  };
}

/** Parses `data/query/{stId}`. */
export function parseReactomeObject(json: unknown): ReactomeObject {
  return parseShape(eventSchema, json, PROVIDER, 'record');
}

/** Parses `data/participants/{stId}` (a list of participating physical entities). */
export function parseReactomeParticipants(json: unknown): number {
  return parseShape(z.array(z.unknown()), json, PROVIDER, 'participant list').length;
}
