import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { normalizeWhitespace } from '../shared/text.js';
import { splitVersion } from './ensemblIds.js';
import type { EnsemblLookup, EnsemblSequence } from './parseEnsembl.js';

const SOURCE_ID = 'ensembl';
const FASTA_LICENSE = 'Ensembl data: no restrictions on use (https://www.ensembl.org/info/about/legal/disclaimer.html)';
/** Longer sequences (whole genomic loci) are left to the FASTA candidate instead of the result. */
export const MAX_INLINE_SEQUENCE_CHARS = 500_000;

const KINDS: Record<string, string> = { Gene: 'gene', Transcript: 'transcript', Translation: 'protein', Exon: 'exon' };

/** One lookup answer as a normalized record, linked to its www.ensembl.org page. */
export function ensemblLookupRecord(lookup: EnsemblLookup): McpRecord {
  const { base, version } = splitVersion(lookup.id, lookup.version);
  const url = `https://www.ensembl.org/id/${base}`;
  const title = lookup.display_name ?? base;
  const description = lookup.description ? normalizeWhitespace(lookup.description.replace(/\[Source:[^\]]*\]/, '')) : '';
  const identifiers: Record<string, string> = { ensembl: base };
  if (version !== undefined) identifiers.ensemblVersioned = `${base}.${version}`;
  const where = lookup.seq_region_name ? ` ${lookup.assembly_name ?? ''} ${lookup.seq_region_name}:${lookup.start}-${lookup.end}` : '';
  return {
    id: `${SOURCE_ID}:${base}`,
    sourceId: SOURCE_ID,
    sourceRecordId: base,
    kind: KINDS[lookup.object_type] ?? lookup.object_type.toLowerCase(),
    title,
    url,
    identifiers,
    citation: {
      text: `Ensembl ${lookup.object_type} ${identifiers.ensemblVersioned ?? base} (${title}), ${speciesName(lookup.species)}${where}. ${url}`,
      venue: 'Ensembl',
      url,
    },
    ...(description ? { summary: description } : {}),
    fields: lookupFields(lookup, version),
  };
}

/** One sequence as a record; the residues are inline up to MAX_INLINE_SEQUENCE_CHARS. */
export function ensemblSequenceRecord(sequence: EnsemblSequence, type: string): McpRecord {
  const { base, version } = splitVersion(sequence.id, sequence.version);
  const url = `https://www.ensembl.org/id/${base}`;
  const versioned = version !== undefined ? `${base}.${version}` : base;
  return {
    id: `${SOURCE_ID}:${base}`,
    sourceId: SOURCE_ID,
    sourceRecordId: base,
    kind: 'sequence',
    title: `${versioned} ${type} sequence`,
    url,
    identifiers: { ensembl: base, ...(version !== undefined ? { ensemblVersioned: versioned } : {}) },
    citation: { text: `Ensembl ${type} sequence of ${versioned}. ${url}`, venue: 'Ensembl', url },
    ...(sequence.desc ? { summary: sequence.desc } : {}),
    fields: {
      query: sequence.query ?? null,
      type,
      molecule: sequence.molecule ?? null,
      length: sequence.seq.length,
      sequence: sequence.seq.length <= MAX_INLINE_SEQUENCE_CHARS ? sequence.seq : null,
    },
  };
}

/** The same sequence as FASTA from the REST server (`content-type=text/x-fasta`). */
export function ensemblFastaCandidate(sequence: EnsemblSequence, type: string, artifactBase: string): ArtifactCandidate {
  const { base, version } = splitVersion(sequence.id, sequence.version);
  const versioned = version !== undefined ? `${base}.${version}` : base;
  const url = `${artifactBase}/sequence/id/${versioned}?type=${encodeURIComponent(type)}&content-type=text/x-fasta`;
  return {
    id: candidateId(SOURCE_ID, base, url),
    sourceId: SOURCE_ID,
    sourceRecordId: base,
    url,
    kind: 'fasta',
    mediaType: 'text/x-fasta',
    filename: safeFilename(`${versioned}-${type}.fa`),
    license: FASTA_LICENSE,
  };
}

function lookupFields(lookup: EnsemblLookup, version: number | undefined): JsonValue {
  return {
    objectType: lookup.object_type,
    species: lookup.species ?? null,
    version: version ?? null,
    biotype: lookup.biotype ?? null,
    assembly: lookup.assembly_name ?? null,
    seqRegion: lookup.seq_region_name ?? null,
    start: lookup.start ?? null,
    end: lookup.end ?? null,
    strand: lookup.strand ?? null,
    parent: lookup.Parent ?? null,
    canonical: lookup.is_canonical === undefined || lookup.is_canonical === null ? null : lookup.is_canonical === 1,
    length: lookup.length ?? null,
    source: lookup.source ?? null,
    transcripts: (lookup.Transcript ?? []).map((t) => ({
      id: t.id,
      name: t.display_name ?? null,
      biotype: t.biotype ?? null,
      canonical: t.is_canonical === 1,
      exonCount: t.Exon?.length ?? null,
      translationId: t.Translation?.id ?? null,
      proteinLength: t.Translation?.length ?? null,
    })),
    exonCount: lookup.Exon?.length ?? null,
    translationId: lookup.Translation?.id ?? null,
  };
}

function speciesName(species: string | null | undefined): string {
  if (!species) return 'unknown species';
  const name = species.replace(/_/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}
