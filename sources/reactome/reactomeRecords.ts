import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { stripMarkup } from '../shared/text.js';
import type { ReactomeObject, ReactomeSearchEntry } from './parseReactome.js';

const SOURCE_ID = 'reactome';
const EXPORT_LICENSE = 'CC BY 4.0 (Reactome web services and exports, https://reactome.org/license)';
const STABLE_ID = /^R-[A-Z]{3}-\d+$/;
const PATHWAYS = new Set(['Pathway', 'TopLevelPathway', 'CellLineagePath']);
const REACTIONS = new Set(['Reaction', 'BlackBoxEvent', 'Polymerisation', 'Depolymerisation', 'FailedReaction', 'CellDevelopmentStep']);

/** The record kind of a Reactome class: pathway, reaction, or the class name for anything else. */
export function reactomeKind(schemaClass: string | null | undefined): string {
  if (!schemaClass) return 'entity';
  if (PATHWAYS.has(schemaClass)) return 'pathway';
  if (REACTIONS.has(schemaClass)) return 'reaction';
  return schemaClass.charAt(0).toLowerCase() + schemaClass.slice(1);
}

/** A search hit as a record; undefined for hits that are not Reactome objects (interactors, icons). */
export function reactomeSearchRecord(entry: ReactomeSearchEntry): McpRecord | undefined {
  const stId = entry.stId ?? entry.id ?? '';
  if (!STABLE_ID.test(stId)) return undefined;
  const title = stripMarkup(entry.name);
  const species = entry.species?.[0];
  const summary = entry.summation ? stripMarkup(entry.summation) : '';
  return baseRecord(stId, title, reactomeKind(entry.exactType ?? entry.typeName), {
    citationText: `${title}${species ? ` (${species})` : ''}. Reactome ${stId}.`,
    ...(summary ? { summary } : {}),
    fields: { species: species ?? null, type: entry.exactType ?? entry.typeName ?? null },
  });
}

/** A `data/query` object as a record, with its literature and, when known, its participant count. */
export function reactomeRecord(object: ReactomeObject, participantsCount: number | null): McpRecord {
  const title = stripMarkup(object.displayName);
  const version = object.stIdVersion ?? object.stId;
  const summary = (object.summation ?? []).map((s) => stripMarkup(s.text ?? '')).filter(Boolean).join(' ');
  const record = baseRecord(object.stId, title, reactomeKind(object.schemaClass), {
    citationText: `${title}${object.speciesName ? ` (${object.speciesName})` : ''}. Reactome ${version}${object.doi ? `. doi:${object.doi}` : ''}.`,
    ...(summary ? { summary } : {}),
    fields: objectFields(object, participantsCount),
  });
  if (object.stIdVersion) record.identifiers.reactomeVersion = object.stIdVersion;
  if (object.doi) {
    record.identifiers.doi = object.doi;
    record.citation.doi = object.doi;
  }
  const year = object.releaseDate ? Number(object.releaseDate.slice(0, 4)) : Number.NaN;
  if (Number.isInteger(year)) record.citation.year = year;
  if (object.releaseDate) record.published = object.releaseDate.slice(0, 10);
  return record;
}

/** SBML and SBGN exports, which ContentService offers for events (pathways and reactions) only. */
export function reactomeExportCandidates(object: ReactomeObject, artifactBase: string): ArtifactCandidate[] {
  const kind = reactomeKind(object.schemaClass);
  if (kind !== 'pathway' && kind !== 'reaction') return [];
  const formats = [
    { ext: 'sbml', kind: 'sbml', mediaType: 'application/sbml+xml' },
    { ext: 'sbgn', kind: 'sbgn', mediaType: 'application/xml' },
  ];
  return formats.map((format) => {
    const url = `${artifactBase}/exporter/event/${object.stId}.${format.ext}`;
    return {
      id: candidateId(SOURCE_ID, object.stId, url),
      sourceId: SOURCE_ID,
      sourceRecordId: object.stId,
      url,
      kind: format.kind,
      mediaType: format.mediaType,
      filename: safeFilename(`${object.stId}.${format.ext}`),
      license: EXPORT_LICENSE,
    };
  });
}

function baseRecord(
  stId: string,
  title: string,
  kind: string,
  parts: { citationText: string; summary?: string; fields: JsonValue },
): McpRecord {
  const url = `https://reactome.org/content/detail/${stId}`;
  return {
    id: `${SOURCE_ID}:${stId}`,
    sourceId: SOURCE_ID,
    sourceRecordId: stId,
    kind,
    title,
    url,
    identifiers: { reactome: stId },
    citation: { text: `${parts.citationText} ${url}`, venue: 'Reactome Knowledgebase', url },
    ...(parts.summary ? { summary: parts.summary } : {}),
    fields: parts.fields,
  };
}

function objectFields(object: ReactomeObject, participantsCount: number | null): JsonValue {
  return {
    schemaClass: object.schemaClass ?? null,
    species: object.speciesName ?? null,
    stIdVersion: object.stIdVersion ?? null,
    dbId: object.dbId ?? null,
    releaseDate: object.releaseDate ?? null,
    isInDisease: object.isInDisease ?? null,
    isInferred: object.isInferred ?? null,
    participantsCount,
    subEventCount: object.hasEvent ? object.hasEvent.length : null,
    literatureReferences: (object.literatureReference ?? []).map((ref) => ({
      title: ref.title ? stripMarkup(ref.title) : (ref.displayName ?? null),
      journal: ref.journal ?? null,
      year: ref.year ?? null,
      pmid: ref.pubMedIdentifier ? String(ref.pubMedIdentifier) : null,
      url: ref.url ?? null,
      authors: (ref.author ?? []).flatMap((a) => (a.displayName ? [a.displayName] : [])),
    })),
    pathwayBrowserUrl: `https://reactome.org/PathwayBrowser/#/${object.stId}`,
  };
}
