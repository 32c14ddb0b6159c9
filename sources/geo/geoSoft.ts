import type { ArtifactCandidate } from '../../catalog/index.js';
import { ProviderError } from '../shared/providerError.js';
import { providerFetch } from '../shared/providerFetch.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import type { GeoAccession } from './geoIds.js';
import { geoSupplementaryFile } from './geoRecords.js';

/** GEO's accession display; `settings.GEO_QUERY_BASE_URL` replaces it (see secondaryBaseUrl). */
export const GEO_QUERY_BASE_URL = 'https://www.ncbi.nlm.nih.gov/geo/query';

const ENTITY: Record<string, string> = { GSE: 'SERIES', GSM: 'SAMPLE', GPL: 'PLATFORM', GDS: 'DATASET' };
const ATTRIBUTE: Record<string, string> = { GSE: 'Series', GSM: 'Sample', GPL: 'Platform', GDS: 'Dataset' };

/**
 * Supplementary files of a series or sample, read from its SOFT text (`acc.cgi … form=text`): ESummary
 * says only which file types exist, the SOFT `!Series_supplementary_file` lines name the files.
 */
export async function fetchSupplementaryFiles(
  deps: SourceDeps,
  target: { accession: GeoAccession; baseUrl: string },
  signal?: AbortSignal,
): Promise<ArtifactCandidate[]> {
  const { accession, baseUrl: base } = target;
  const params = new URLSearchParams({ acc: accession.accession, targ: 'self', form: 'text', view: 'brief' });
  const response = await providerFetch(deps, `${base}/acc.cgi?${params}`, {
    provider: 'GEO',
    accept: 'text/plain',
    ...(signal ? { signal } : {}),
  });
  // Asked only for records whose summary lists files: text without the record's block is no answer
  // (NCBI sends an HTML error page with status 200 when acc.cgi fails), not a record without files.
  if (!response.body.split(/\r?\n/).some((line) => line.trim() === blockHeader(accession))) {
    throw new ProviderError('upstream_error', `GEO answered without the SOFT text of ${accession.accession} (no "${blockHeader(accession)}" line; an error page?); try again later`);
  }
  return supplementaryLinks(response.body, accession)
    .map((link) => geoSupplementaryFile(accession, link))
    .filter((c): c is ArtifactCandidate => c !== undefined);
}

/** The `!<Entity>_supplementary_file…` values inside the block of this accession only (a family file holds many blocks). */
export function supplementaryLinks(soft: string, accession: GeoAccession): string[] {
  const header = blockHeader(accession);
  const prefix = `!${ATTRIBUTE[accession.type]}_supplementary_file`;
  const links: string[] = [];
  let inBlock = false;
  for (const line of soft.split(/\r?\n/)) {
    if (line.startsWith('^')) inBlock = line.trim() === header;
    else if (inBlock && line.startsWith(prefix)) {
      const value = line.slice(line.indexOf('=') + 1).trim();
      if (value && value.toUpperCase() !== 'NONE') links.push(value);
    }
  }
  return links;
}

/** The line that opens an accession's block in SOFT text, e.g. `^SERIES = GSE105845`. */
function blockHeader(accession: GeoAccession): string {
  return `^${ENTITY[accession.type]} = ${accession.accession}`;
}
