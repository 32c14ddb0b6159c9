import type { ArtifactCandidate, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { geoStub, httpsFromFtp, type GeoAccession } from './geoIds.js';
import type { GeoSummary } from './parseGeoSummary.js';

const SOURCE_ID = 'geo';
const FILE_LICENSE = 'GEO: NCBI places no restrictions on these data; submitters may hold rights, so cite the series and its publication.';
/** Long series list thousands of samples; records keep the first ones and the count. */
const MAX_SAMPLES_LISTED = 50;

const KINDS: Record<string, string> = { GSE: 'dataset', GDS: 'dataset', GSM: 'sample', GPL: 'platform' };

const MEDIA_TYPES: Array<[RegExp, string]> = [
  [/\.tar$/i, 'application/x-tar'],
  [/\.(tgz|tar\.gz)$/i, 'application/gzip'],
  [/\.gz$/i, 'application/gzip'],
  [/\.zip$/i, 'application/zip'],
  [/\.(txt|tsv|soft)$/i, 'text/plain'],
  [/\.csv$/i, 'text/csv'],
  [/\.(h5|hdf5)$/i, 'application/x-hdf5'],
];

/** The canonical GEO accession page. */
export function geoUrl(accession: string): string {
  return `https://www.ncbi.nlm.nih.gov/geo/query/acc.cgi?acc=${accession}`;
}

/** One GEO series, sample, platform or dataset as a normalized record. */
export function geoRecord(s: GeoSummary): McpRecord {
  const accession = s.accession.accession;
  const url = geoUrl(accession);
  const year = s.published ? Number(s.published.slice(0, 4)) : undefined;
  const identifiers: Record<string, string> = { geo: accession, geoUid: s.uid };
  if (s.bioproject) identifiers.bioproject = s.bioproject;
  if (s.pubmedIds[0]) identifiers.pmid = s.pubmedIds[0];
  const taxon = s.taxon ? ` (${s.taxon})` : '';
  return {
    id: `${SOURCE_ID}:${accession}`,
    sourceId: SOURCE_ID,
    sourceRecordId: accession,
    kind: KINDS[s.accession.type] ?? 'dataset',
    title: s.title || accession,
    url,
    identifiers,
    citation: {
      text: `${s.title || accession}${taxon}. Gene Expression Omnibus, NCBI, accession ${accession}${year ? ` (${year})` : ''}. ${url}`,
      ...(year ? { year } : {}),
      venue: 'Gene Expression Omnibus (GEO)',
      url,
    },
    ...(s.summary ? { summary: s.summary } : {}),
    ...(s.published ? { published: s.published } : {}),
    fields: {
      entryType: s.entryType,
      gdsType: s.gdsType ?? null,
      taxon: s.taxon ?? null,
      platforms: s.platforms,
      series: s.series,
      sampleCount: s.sampleCount,
      samples: s.samples.slice(0, MAX_SAMPLES_LISTED),
      pubmedIds: s.pubmedIds,
      supplementaryFileTypes: s.supplementaryTypes,
      ftpFolder: s.ftpLink ? (httpsFromFtp(s.ftpLink) ?? null) : null,
    },
  };
}

/** Files whose names follow from the record alone: series matrices (one per platform) and a dataset's SOFT file. */
export function geoStandardFiles(s: GeoSummary): ArtifactCandidate[] {
  const acc = s.accession;
  const base = 'https://ftp.ncbi.nlm.nih.gov/geo';
  if (acc.type === 'GDS') {
    return [candidate(acc, `${base}/datasets/${geoStub(acc)}/${acc.accession}/soft/${acc.accession}.soft.gz`, 'soft')];
  }
  if (acc.type !== 'GSE') return [];
  // A series on several platforms has one matrix per platform, named like GSE93374-GPL13112.
  const names = s.platforms.length > 1 ? s.platforms.map((gpl) => `${acc.accession}-${gpl}`) : [acc.accession];
  return names.map((name) =>
    candidate(acc, `${base}/series/${geoStub(acc)}/${acc.accession}/matrix/${name}_series_matrix.txt.gz`, 'series-matrix'),
  );
}

/** A supplementary file link from the SOFT text, rewritten from ftp:// to https://; undefined for other hosts. */
export function geoSupplementaryFile(acc: GeoAccession, link: string): ArtifactCandidate | undefined {
  const url = httpsFromFtp(link);
  return url && !url.endsWith('/') ? candidate(acc, url, 'supplementary') : undefined;
}

function candidate(acc: GeoAccession, url: string, kind: string): ArtifactCandidate {
  const name = decodedName(url.slice(url.lastIndexOf('/') + 1));
  return {
    id: candidateId(SOURCE_ID, acc.accession, url),
    sourceId: SOURCE_ID,
    sourceRecordId: acc.accession,
    url,
    kind,
    mediaType: MEDIA_TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'application/octet-stream',
    filename: safeFilename(name),
    license: FILE_LICENSE,
  };
}

function decodedName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
