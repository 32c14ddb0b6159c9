import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import type { UniprotEntry } from './parseUniprotEntry.js';

const SOURCE_ID = 'uniprot';
const FASTA_LICENSE = 'CC BY 4.0 (UniProt Consortium)';

/** One UniProtKB entry as a normalized record, with its canonical www.uniprot.org entry page. */
export function uniprotRecord(entry: UniprotEntry): McpRecord {
  const url = `https://www.uniprot.org/uniprotkb/${entry.accession}/entry`;
  const title = entry.proteinName ?? entry.entryName ?? entry.accession;
  const year = yearOf(entry.lastAnnotationUpdate);
  const identifiers: Record<string, string> = { uniprot: entry.accession };
  if (entry.entryName) identifiers.uniprotEntryName = entry.entryName;
  return {
    id: `${SOURCE_ID}:${entry.accession}`,
    sourceId: SOURCE_ID,
    sourceRecordId: entry.accession,
    kind: 'protein',
    title,
    url,
    identifiers,
    citation: {
      text: citationText(entry, title, url),
      authors: ['The UniProt Consortium'],
      ...(year ? { year } : {}),
      venue: entry.reviewed ? 'UniProtKB/Swiss-Prot' : 'UniProtKB/TrEMBL',
      url,
    },
    ...(entry.functionText ? { summary: entry.functionText } : {}),
    ...(entry.firstPublic ? { published: entry.firstPublic } : {}),
    fields: entryFields(entry),
  };
}

/** The FASTA of exactly the accession asked for (an isoform's own sequence when `-n` was given). */
export function uniprotFastaCandidate(accession: string, artifactBase: string): ArtifactCandidate {
  const url = `${artifactBase}/uniprotkb/${accession}.fasta`;
  return {
    id: candidateId(SOURCE_ID, accession, url),
    sourceId: SOURCE_ID,
    sourceRecordId: accession,
    url,
    kind: 'fasta',
    mediaType: 'text/x-fasta',
    filename: safeFilename(`uniprot-${accession}.fasta`),
    license: FASTA_LICENSE,
  };
}

function entryFields(entry: UniprotEntry): JsonValue {
  return {
    entryName: entry.entryName ?? null,
    entryType: entry.entryType,
    reviewed: entry.reviewed,
    proteinName: entry.proteinName ?? null,
    alternativeNames: entry.alternativeNames,
    ecNumbers: entry.ecNumbers,
    genes: entry.genes,
    organism: {
      scientificName: entry.organism?.scientificName ?? null,
      commonName: entry.organism?.commonName ?? null,
      taxonId: entry.organism?.taxonId ?? null,
    },
    length: entry.length ?? null,
    molWeight: entry.molWeight ?? null,
    // Checksums of the bare sequence, not of the FASTA file, so they are not candidate checksums.
    sequenceMd5: entry.sequenceChecksums.md5 ?? null,
    sequenceCrc64: entry.sequenceChecksums.crc64 ?? null,
    proteinExistence: entry.proteinExistence ?? null,
    annotationScore: entry.annotationScore ?? null,
    keywords: entry.keywords,
    crossReferences: entry.crossReferences,
    crossReferenceCount: entry.crossReferenceCount,
    secondaryAccessions: entry.secondaryAccessions,
    entryVersion: entry.entryVersion ?? null,
    lastAnnotationUpdate: entry.lastAnnotationUpdate ?? null,
  };
}

function citationText(entry: UniprotEntry, title: string, url: string): string {
  const gene = entry.genes[0]?.name;
  const organism = entry.organism?.scientificName;
  const about = [gene, organism].filter(Boolean).join(', ');
  const version = entry.entryVersion !== undefined ? `, entry version ${entry.entryVersion}` : '';
  const name = entry.entryName ? ` (${entry.entryName})` : '';
  return `The UniProt Consortium. ${title}${about ? ` (${about})` : ''}. UniProtKB ${entry.accession}${name}${version}. ${url}`;
}

function yearOf(date: string | undefined): number | undefined {
  const year = date ? Number(date.slice(0, 4)) : Number.NaN;
  return Number.isInteger(year) ? year : undefined;
}
