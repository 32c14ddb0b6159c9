import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { normalizeWhitespace } from '../shared/text.js';
import type { RxivItem } from './parseRxivDetails.js';
import type { RxivServer } from './rxivIds.js';

const SITE: Record<RxivServer, { host: string; name: string }> = {
  biorxiv: { host: 'www.biorxiv.org', name: 'bioRxiv' },
  medrxiv: { host: 'www.medrxiv.org', name: 'medRxiv' },
};

/** The per-preprint license codes of the API, as a reader understands them. */
const LICENSES: Record<string, string> = {
  cc_by: 'CC BY 4.0',
  cc_by_nc: 'CC BY-NC 4.0',
  cc_by_nd: 'CC BY-ND 4.0',
  cc_by_nc_nd: 'CC BY-NC-ND 4.0',
  cc0: 'CC0 1.0',
  cc_no: 'No reuse license (cc_no): all rights reserved by the authors; reading only',
};

/** A license code in words; unknown codes are passed on as the API sent them. */
export function rxivLicense(code: string | undefined): string {
  const known = code ? LICENSES[code.trim().toLowerCase()] : undefined;
  if (known) return known;
  return code?.trim() ? `License code "${code.trim()}" (see the preprint page)` : 'No license stated by the API; see the preprint page';
}

/** The canonical page of one version: https://www.biorxiv.org/content/{doi}v{n}. */
export function rxivUrl(server: RxivServer, doi: string, version: string): string {
  return `https://${SITE[server].host}/content/${doi}v${version}`;
}

/** One preprint version as a normalized record. */
export function rxivRecord(server: RxivServer, item: RxivItem): McpRecord {
  const versioned = `${item.doi}v${item.version}`;
  const url = rxivUrl(server, item.doi, item.version);
  const authors = (item.authors ?? '').split(/;\s*/).map((a) => a.trim()).filter(Boolean);
  const year = /^\d{4}/.test(item.date ?? '') ? Number(item.date!.slice(0, 4)) : undefined;
  const title = normalizeWhitespace(item.title ?? '');
  const publishedDoi = item.published && item.published !== 'NA' ? item.published : undefined;
  const identifiers: Record<string, string> = { doi: item.doi, [`${server}Version`]: versioned };
  if (publishedDoi) identifiers.publishedDoi = publishedDoi;
  const shownAuthors = authors.length > 3 ? `${authors.slice(0, 3).join('; ')}; et al.` : authors.join('; ');
  return {
    id: `${server}:${versioned}`,
    sourceId: server,
    sourceRecordId: versioned,
    kind: 'preprint',
    title,
    url,
    identifiers,
    citation: {
      text: `${shownAuthors || 'Unknown authors'} (${year ?? 'n.d.'}). ${title}. ${SITE[server].name}, version ${item.version}. doi:${item.doi}.`,
      authors,
      ...(year ? { year } : {}),
      venue: SITE[server].name,
      doi: item.doi,
      url,
    },
    ...(item.abstract ? { summary: normalizeWhitespace(item.abstract) } : {}),
    ...(item.date ? { published: item.date } : {}),
    fields: itemFields(item, publishedDoi),
  };
}

/** The full-text PDF of one version, on the preprint server's own host. */
export function rxivPdfCandidate(server: RxivServer, item: RxivItem): ArtifactCandidate {
  const versioned = `${item.doi}v${item.version}`;
  const url = `${rxivUrl(server, item.doi, item.version)}.full.pdf`;
  return {
    id: candidateId(server, versioned, url),
    sourceId: server,
    sourceRecordId: versioned,
    url,
    kind: 'pdf',
    mediaType: 'application/pdf',
    filename: safeFilename(`${server}-${versioned.replace(/\//g, '-')}.pdf`),
    license: rxivLicense(item.license),
  };
}

function itemFields(item: RxivItem, publishedDoi: string | undefined): JsonValue {
  return {
    version: Number(item.version),
    type: item.type ?? null,
    category: item.category ?? null,
    license: item.license || null,
    publishedDoi: publishedDoi ?? null,
    correspondingAuthor: item.author_corresponding ?? null,
    correspondingInstitution: item.author_corresponding_institution ?? null,
    funders: Array.isArray(item.funder) ? item.funder.map((f) => f.name ?? '').filter(Boolean) : [],
    jatsXml: item.jatsxml?.startsWith('https://') ? item.jatsxml : null,
  };
}
