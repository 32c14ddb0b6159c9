import type { ArtifactCandidate, Citation, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { normalizeWhitespace } from '../shared/text.js';
import { PDB_FILES_BASE } from './pdbHosts.js';
import { pdbEntryDoi } from './pdbIds.js';
import type { PdbEntry, PdbPolymerEntity } from './parsePdb.js';

const SOURCE_ID = 'pdb';
const FILE_LICENSE = 'CC0 1.0 (PDB data); please cite the entry and RCSB PDB';

/** One PDB entry as a normalized record; polymer entities are added when they were fetched. */
export function pdbRecord(entry: PdbEntry, entities?: PdbPolymerEntity[]): McpRecord {
  const id = entry.rcsb_id.toUpperCase();
  const url = `https://www.rcsb.org/structure/${id}`;
  const title = normalizeWhitespace(entry.struct?.title ?? '') || `PDB entry ${id}`;
  const pmid = entry.rcsb_primary_citation?.pdbx_database_id_pub_med;
  const identifiers: Record<string, string> = { pdb: id, doi: pdbEntryDoi(id) };
  if (pmid) identifiers.pmid = String(pmid);
  const released = entry.rcsb_accession_info?.initial_release_date?.slice(0, 10);
  return {
    id: `${SOURCE_ID}:${id}`,
    sourceId: SOURCE_ID,
    sourceRecordId: id,
    kind: 'structure',
    title,
    url,
    identifiers,
    citation: citationOf(entry, id, title, url),
    summary: summaryOf(entry, released),
    ...(released ? { published: released } : {}),
    fields: fieldsOf(entry, entities),
  };
}

/** mmCIF always; the legacy PDB format only when RCSB marks the entry PDB-format compatible. */
export function pdbCandidates(entry: PdbEntry): ArtifactCandidate[] {
  const id = entry.rcsb_id.toUpperCase();
  const files = [{ ext: 'cif', kind: 'mmcif', mediaType: 'chemical/x-mmcif' }];
  if (entry.pdbx_database_status?.pdb_format_compatible === 'Y') {
    files.push({ ext: 'pdb', kind: 'pdb', mediaType: 'chemical/x-pdb' });
  }
  return files.map((file) => {
    const url = `${PDB_FILES_BASE}/${id}.${file.ext}`;
    return {
      id: candidateId(SOURCE_ID, id, url),
      sourceId: SOURCE_ID,
      sourceRecordId: id,
      url,
      kind: file.kind,
      mediaType: file.mediaType,
      filename: safeFilename(`${id}.${file.ext}`),
      license: FILE_LICENSE,
    };
  });
}

function citationOf(entry: PdbEntry, id: string, title: string, url: string): Citation {
  const primary = entry.rcsb_primary_citation;
  const entryRef = `PDB ${id}, doi:${pdbEntryDoi(id)}`;
  if (!primary?.title) return { text: `${title}. ${entryRef}. ${url}`, venue: 'RCSB Protein Data Bank', url };
  const authors = primary.rcsb_authors ?? [];
  const shown = authors.length > 3 ? `${authors.slice(0, 3).join(', ')} et al.` : authors.join(', ');
  const venue = primary.rcsb_journal_abbrev ?? primary.journal_abbrev ?? undefined;
  const pages = [primary.page_first, primary.page_last].filter(Boolean).join('-');
  const where = [venue, primary.journal_volume, pages].filter(Boolean).join(' ');
  const doi = primary.pdbx_database_id_doi ?? undefined;
  return {
    text: `${shown || 'Unknown authors'} (${primary.year ?? 'n.d.'}). ${normalizeWhitespace(primary.title)}. ${where}${doi ? `. doi:${doi}` : ''}. ${entryRef}.`,
    ...(authors.length > 0 ? { authors } : {}),
    ...(primary.year ? { year: primary.year } : {}),
    ...(venue ? { venue } : {}),
    ...(doi ? { doi } : {}),
    url,
  };
}

function summaryOf(entry: PdbEntry, released: string | undefined): string {
  const method = (entry.exptl ?? []).map((e) => e.method).join(', ') || 'Unknown method';
  const resolution = entry.rcsb_entry_info?.resolution_combined?.[0];
  const parts = [resolution !== undefined ? `${method} at ${resolution} Å` : method];
  if (entry.rcsb_entry_info?.polymer_composition) parts.push(entry.rcsb_entry_info.polymer_composition);
  if (released) parts.push(`released ${released}`);
  return parts.join('; ');
}

function fieldsOf(entry: PdbEntry, entities: PdbPolymerEntity[] | undefined): JsonValue {
  const primary = entry.rcsb_primary_citation;
  return {
    methods: (entry.exptl ?? []).map((e) => e.method),
    resolutionAngstrom: entry.rcsb_entry_info?.resolution_combined?.[0] ?? null,
    releaseDate: entry.rcsb_accession_info?.initial_release_date?.slice(0, 10) ?? null,
    depositDate: entry.rcsb_accession_info?.deposit_date?.slice(0, 10) ?? null,
    revisionDate: entry.rcsb_accession_info?.revision_date?.slice(0, 10) ?? null,
    keywords: entry.struct_keywords?.pdbx_keywords ?? null,
    polymerComposition: entry.rcsb_entry_info?.polymer_composition ?? null,
    molecularWeightKDa: entry.rcsb_entry_info?.molecular_weight ?? null,
    polymerEntityIds: entry.rcsb_entry_container_identifiers?.polymer_entity_ids ?? [],
    ...(entities ? { polymerEntities: entities.map(entityFields) } : {}),
    primaryCitation: primary
      ? {
          title: primary.title ?? null,
          journal: primary.rcsb_journal_abbrev ?? primary.journal_abbrev ?? null,
          year: primary.year ?? null,
          doi: primary.pdbx_database_id_doi ?? null,
          pmid: primary.pdbx_database_id_pub_med ? String(primary.pdbx_database_id_pub_med) : null,
        }
      : null,
  };
}

function entityFields(entity: PdbPolymerEntity): JsonValue {
  const ids = entity.rcsb_polymer_entity_container_identifiers;
  return {
    entityId: ids?.entity_id ?? entity.rcsb_id.split('_')[1] ?? null,
    description: entity.rcsb_polymer_entity?.pdbx_description ?? null,
    polymerType: entity.entity_poly?.rcsb_entity_polymer_type ?? entity.entity_poly?.type ?? null,
    chains: ids?.auth_asym_ids ?? entity.entity_poly?.pdbx_strand_id?.split(',') ?? [],
    sequenceLength: entity.entity_poly?.rcsb_sample_sequence_length ?? null,
    copies: entity.rcsb_polymer_entity?.pdbx_number_of_molecules ?? null,
    organisms: (entity.rcsb_entity_source_organism ?? []).map((o) => o.ncbi_scientific_name ?? String(o.ncbi_taxonomy_id ?? '')),
    uniprotIds: ids?.uniprot_ids ?? [],
  };
}
