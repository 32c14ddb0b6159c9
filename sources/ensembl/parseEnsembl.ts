import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';

const PROVIDER = 'Ensembl';
const text = z.string().nullish();
const num = z.number().nullish();

const translationSchema = z.object({ id: z.string().min(1), length: num, Parent: text });
const transcriptSchema = z.object({
  id: z.string().min(1),
  display_name: text,
  biotype: text,
  is_canonical: num,
  version: num,
  start: num,
  end: num,
  Translation: translationSchema.nullish(),
  Exon: z.array(z.object({ id: z.string() })).nullish(),
});

const lookupSchema = z.object({
  id: z.string().min(1),
  object_type: z.string().min(1),
  species: text,
  display_name: text,
  description: text,
  biotype: text,
  source: text,
  assembly_name: text,
  seq_region_name: text,
  start: num,
  end: num,
  strand: num,
  version: num,
  Parent: text,
  is_canonical: num,
  length: num,
  Transcript: z.array(transcriptSchema).nullish(),
  Exon: z.array(z.object({ id: z.string() })).nullish(),
  Translation: translationSchema.nullish(),
});

const sequenceSchema = z.object({
  id: z.string().min(1),
  query: text,
  version: num,
  seq: z.string(),
  molecule: text,
  desc: text,
});

/** An Ensembl `lookup/id` or `lookup/symbol` answer (Gene, Transcript, Translation, Exon …). */
export type EnsemblLookup = z.output<typeof lookupSchema>;
/** One sequence of a `sequence/id` answer. */
export type EnsemblSequence = z.output<typeof sequenceSchema>;

/** Parses a lookup answer. */
export function parseEnsemblLookup(json: unknown): EnsemblLookup {
  return parseShape(lookupSchema, json, PROVIDER, 'lookup answer');
}

/** Parses a `sequence/id` answer: one object, or a list with `multiple_sequences=1`. */
export function parseEnsemblSequences(json: unknown): EnsemblSequence[] {
  const parsed = parseShape(z.union([z.array(sequenceSchema), sequenceSchema]), json, PROVIDER, 'sequence answer');
  return Array.isArray(parsed) ? parsed : [parsed];
}
