import type { ArtifactCandidate } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { z } from 'zod';
import { fetchJson } from '../shared/fetchJson.js';
import { parseShape } from '../shared/parseShape.js';
import { providerFetch } from '../shared/providerFetch.js';
import type { SourceDeps } from '../shared/sourceDefinition.js';
import { childOf, childrenOf, parseXml, textOf } from '../shared/xml.js';
import { pmcNumber } from './pubmedIds.js';

/** PMC Article Datasets bucket; `settings.PMC_OA_BASE_URL` replaces it (see secondaryBaseUrl). */
export const PMC_OA_BASE_URL = 'https://pmc-oa-opendata.s3.amazonaws.com';
/** Candidates always name the public bucket host, whatever mirror answered the lookup. */
const PUBLIC_HOST = 'pmc-oa-opendata.s3.amazonaws.com';
const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const PROVIDER = 'PMC Open Access';

/** What PMC says about one article: whether it is open access, under which license, and its files. */
export interface PmcOpenAccess {
  pmcid: string;
  version?: number;
  openAccess: boolean;
  licenseCode?: string;
  candidates: ArtifactCandidate[];
}

const metadataSchema = z.object({
  pmcid: z.string(),
  is_pmc_openaccess: z.boolean().optional(),
  license_code: z.string().nullable().optional(),
  pdf_url: z.string().nullable().optional(),
  xml_url: z.string().nullable().optional(),
  text_url: z.string().nullable().optional(),
  media_urls: z.array(z.string()).nullable().optional(),
});
type PmcMetadata = z.output<typeof metadataSchema>;

const FILE_KINDS: Array<{ key: 'pdf_url' | 'xml_url' | 'text_url'; kind: string; mediaType: string }> = [
  { key: 'pdf_url', kind: 'pdf', mediaType: 'application/pdf' },
  { key: 'xml_url', kind: 'jats-xml', mediaType: 'application/xml' },
  { key: 'text_url', kind: 'text', mediaType: 'text/plain' },
];

const MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  tif: 'image/tiff',
  pdf: 'application/pdf',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Looks an article up in the PMC Open Data bucket: latest version, then its metadata JSON with `?md5=` file URLs. */
export async function lookupPmcOpenAccess(
  deps: SourceDeps,
  article: { pmid: string; pmcid: string; baseUrl: string },
  signal?: AbortSignal,
): Promise<PmcOpenAccess> {
  const base = article.baseUrl;
  const pmcid = `PMC${pmcNumber(article.pmcid) ?? ''}`;
  const opts = { provider: PROVIDER, ...(signal ? { signal } : {}) };
  const listing = await providerFetch(deps, `${base}/?list-type=2&prefix=${pmcid}.&delimiter=/`, opts);
  const version = latestVersion(listing.body, pmcid);
  if (version === undefined) return { pmcid, openAccess: false, candidates: [] };
  const key = `${pmcid}.${version}`;
  const { json } = await fetchJson(deps, `${base}/${key}/${key}.json`, opts);
  const metadata = parseShape(metadataSchema, json, PROVIDER, 'article metadata');
  // Only PMC's own flag makes an article open access; author manuscripts (license TDM) are not.
  const openAccess = metadata.is_pmc_openaccess === true && metadata.pmcid === pmcid;
  const licenseCode = metadata.license_code?.trim() || undefined;
  const result: PmcOpenAccess = { pmcid, version, openAccess, candidates: [] };
  if (licenseCode) result.licenseCode = licenseCode;
  if (openAccess) result.candidates = metadataCandidates(metadata, article.pmid, licenseCode);
  return result;
}

function latestVersion(xml: string, pmcid: string): number | undefined {
  const root = parseXml(xml, PROVIDER);
  const versions = childrenOf(root, S3_NS, 'CommonPrefixes')
    .map((p) => textOf(childOf(p, S3_NS, 'Prefix')).trim())
    .map((prefix) => new RegExp(`^${pmcid}\\.(\\d+)/$`).exec(prefix)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  return versions.length > 0 ? Math.max(...versions) : undefined;
}

function metadataCandidates(metadata: PmcMetadata, pmid: string, licenseCode?: string): ArtifactCandidate[] {
  const license = licenseCode ? `${licenseCode} (PMC Open Access subset)` : 'PMC Open Access subset; see the article for its license';
  const files = FILE_KINDS.map((f) => ({ ...f, s3: metadata[f.key] ?? '' }));
  const media = (metadata.media_urls ?? []).map((s3) => ({ kind: 'media', mediaType: '', s3 }));
  return [...files, ...media]
    .map((f) => s3Candidate(f.s3, { pmid, kind: f.kind, mediaType: f.mediaType, license }))
    .filter((c): c is ArtifactCandidate => c !== undefined);
}

/** `s3://pmc-oa-opendata/PMC1.1/PMC1.1.pdf?md5=…` → the bucket's https URL, with the md5 as a checksum. */
function s3Candidate(
  s3Url: string,
  file: { pmid: string; kind: string; mediaType: string; license: string },
): ArtifactCandidate | undefined {
  const match = /^s3:\/\/pmc-oa-opendata\/([A-Za-z0-9._\-/]+?)(?:\?md5=([0-9a-fA-F]{32}))?$/.exec(s3Url);
  if (!match || match[1]!.includes('..')) return undefined;
  const key = match[1]!;
  const url = `https://${PUBLIC_HOST}/${key}`;
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  const candidate: ArtifactCandidate = {
    id: candidateId('pubmed', file.pmid, url),
    sourceId: 'pubmed',
    sourceRecordId: file.pmid,
    url,
    kind: file.kind,
    mediaType: file.mediaType || MEDIA_TYPES[extension] || 'application/octet-stream',
    filename: safeFilename(fileBasename(key)),
    license: file.license,
  };
  if (match[2]) candidate.checksum = { algorithm: 'md5', value: match[2].toLowerCase() };
  return candidate;
}

/** "PMC1.1/PMC1.1.pdf" → "PMC1.1.pdf"; figures ("PMC1.1/gr1.jpg") keep the article prefix so names stay unique. */
function fileBasename(key: string): string {
  const [dir = '', ...rest] = key.split('/');
  const base = rest.join('-') || dir;
  return base.startsWith('PMC') ? base : `${dir}-${base}`;
}
