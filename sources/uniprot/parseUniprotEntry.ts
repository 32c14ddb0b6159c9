import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';
import { normalizeWhitespace } from '../shared/text.js';

const PROVIDER = 'UniProt';
/** Longest id list kept per cross-referenced database (P04637 has hundreds of PDB entries). */
const MAX_IDS_PER_DATABASE = 100;

const valueText = z.object({ value: z.string() });
const name = z.object({ fullName: valueText.optional(), ecNumbers: z.array(valueText).optional() });

const entrySchema = z.object({
  entryType: z.string(),
  primaryAccession: z.string().min(1),
  uniProtkbId: z.string().optional(),
  secondaryAccessions: z.array(z.string()).optional(),
  inactiveReason: z
    .object({ inactiveReasonType: z.string().optional(), mergeDemergeTo: z.array(z.string()).optional() })
    .optional(),
  entryAudit: z
    .object({
      firstPublicDate: z.string().optional(),
      lastAnnotationUpdateDate: z.string().optional(),
      entryVersion: z.number().optional(),
    })
    .optional(),
  annotationScore: z.number().optional(),
  proteinExistence: z.string().optional(),
  organism: z
    .object({ scientificName: z.string().optional(), commonName: z.string().optional(), taxonId: z.number().optional() })
    .optional(),
  proteinDescription: z
    .object({
      recommendedName: name.optional(),
      submissionNames: z.array(name).optional(),
      alternativeNames: z.array(name).optional(),
    })
    .optional(),
  genes: z.array(z.object({ geneName: valueText.optional(), synonyms: z.array(valueText).optional() })).optional(),
  comments: z.array(z.object({ commentType: z.string(), texts: z.array(valueText).optional() })).optional(),
  keywords: z.array(z.object({ name: z.string() })).optional(),
  uniProtKBCrossReferences: z.array(z.object({ database: z.string(), id: z.string() })).optional(),
  sequence: z
    .object({
      length: z.number().optional(),
      molWeight: z.number().optional(),
      md5: z.string().optional(),
      crc64: z.string().optional(),
    })
    .optional(),
});

const searchSchema = z.object({ results: z.array(entrySchema) });

type RawEntry = z.output<typeof entrySchema>;

/** The parts of a UniProtKB entry a record shows. */
export interface UniprotEntry {
  accession: string;
  entryName?: string;
  entryType: string;
  reviewed: boolean;
  inactive?: { reason: string; mergedInto: string[] };
  proteinName?: string;
  alternativeNames: string[];
  ecNumbers: string[];
  genes: Array<{ name: string; synonyms: string[] }>;
  organism?: { scientificName?: string; commonName?: string; taxonId?: number };
  length?: number;
  molWeight?: number;
  sequenceChecksums: { md5?: string; crc64?: string };
  functionText?: string;
  proteinExistence?: string;
  annotationScore?: number;
  keywords: string[];
  crossReferences: Record<string, string[]>;
  crossReferenceCount: number;
  secondaryAccessions: string[];
  firstPublic?: string;
  lastAnnotationUpdate?: string;
  entryVersion?: number;
}

/** Parses one `uniprotkb/{accession}.json` entry. */
export function parseUniprotEntry(json: unknown): UniprotEntry {
  return toEntry(parseShape(entrySchema, json, PROVIDER, 'UniProtKB entry'));
}

/** Parses a `uniprotkb/search` body (`{"results": [...]}`; paging lives in the headers). */
export function parseUniprotSearch(json: unknown): UniprotEntry[] {
  return parseShape(searchSchema, json, PROVIDER, 'search result').results.map(toEntry);
}

function toEntry(raw: RawEntry): UniprotEntry {
  const description = raw.proteinDescription;
  const main = description?.recommendedName ?? description?.submissionNames?.[0];
  const functionText = (raw.comments ?? [])
    .filter((c) => c.commentType === 'FUNCTION')
    .flatMap((c) => (c.texts ?? []).map((t) => normalizeWhitespace(t.value)))
    .join(' ');
  return {
    accession: raw.primaryAccession,
    entryName: raw.uniProtkbId,
    entryType: raw.entryType,
    reviewed: /swiss-prot/i.test(raw.entryType) && !/unreviewed/i.test(raw.entryType),
    ...(raw.entryType === 'Inactive' ? { inactive: inactiveOf(raw) } : {}),
    proteinName: main?.fullName?.value,
    alternativeNames: (description?.alternativeNames ?? []).flatMap((n) => (n.fullName ? [n.fullName.value] : [])),
    ecNumbers: (main?.ecNumbers ?? []).map((e) => e.value),
    genes: (raw.genes ?? []).flatMap((g) =>
      g.geneName ? [{ name: g.geneName.value, synonyms: (g.synonyms ?? []).map((s) => s.value) }] : [],
    ),
    organism: raw.organism,
    length: raw.sequence?.length,
    molWeight: raw.sequence?.molWeight,
    sequenceChecksums: { md5: raw.sequence?.md5, crc64: raw.sequence?.crc64 },
    functionText: functionText || undefined,
    proteinExistence: raw.proteinExistence,
    annotationScore: raw.annotationScore,
    keywords: (raw.keywords ?? []).map((k) => k.name),
    ...crossReferencesOf(raw),
    secondaryAccessions: raw.secondaryAccessions ?? [],
    firstPublic: raw.entryAudit?.firstPublicDate,
    lastAnnotationUpdate: raw.entryAudit?.lastAnnotationUpdateDate,
    entryVersion: raw.entryAudit?.entryVersion,
  };
}

function inactiveOf(raw: RawEntry): { reason: string; mergedInto: string[] } {
  return {
    reason: raw.inactiveReason?.inactiveReasonType ?? 'unspecified',
    mergedInto: raw.inactiveReason?.mergeDemergeTo ?? [],
  };
}

function crossReferencesOf(raw: RawEntry): Pick<UniprotEntry, 'crossReferences' | 'crossReferenceCount'> {
  const refs = raw.uniProtKBCrossReferences ?? [];
  // A Map, then own properties: a database the provider names "constructor" or "__proto__" is a group like any other.
  const byDatabase = new Map<string, string[]>();
  for (const ref of refs) {
    const ids = byDatabase.get(ref.database) ?? byDatabase.set(ref.database, []).get(ref.database)!;
    if (ids.length < MAX_IDS_PER_DATABASE) ids.push(ref.id);
  }
  return { crossReferences: Object.fromEntries(byDatabase), crossReferenceCount: refs.length };
}
