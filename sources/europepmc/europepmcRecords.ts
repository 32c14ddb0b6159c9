import { isHostAllowed } from '../../catalog/index.js';
import type { ArtifactCandidate, JsonValue, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { stripMarkup } from '../shared/text.js';
import type { EuropepmcResult } from './parseEuropepmcSearch.js';

const SOURCE_ID = 'europepmc';
/** Candidate PDFs must sit on Europe PMC's own hosts (the manifest's allowedDomains). */
const PDF_HOSTS = ['europepmc.org', 'www.ebi.ac.uk'];
/** Inline tags Europe PMC sometimes sends entity-encoded inside titles ("&lt;i&gt;ATM&lt;/i&gt;"). */
const ENCODED_TAG = /&lt;(\/?(?:i|b|em|strong|sup|sub|u|sc|span)\b[^&]{0,40})&gt;/gi;
/** Section headings and paragraphs in core abstracts ("<h4>Methods</h4>Text") must not glue words together. */
const BLOCK_TAG = /<\/?(?:h\d|p|br|div|li|ul|ol)\b[^>]*>/gi;

/** The canonical Europe PMC page of a record. */
export function europepmcUrl(source: string, id: string): string {
  return `https://europepmc.org/article/${encodeURIComponent(source)}/${encodeURIComponent(id)}`;
}

/** Title and abstract text without markup, whether the markup came as tags or as encoded tags. */
export function europepmcText(text: string | undefined): string {
  return stripMarkup((text ?? '').replace(ENCODED_TAG, '<$1>').replace(BLOCK_TAG, ' '));
}

/** One Europe PMC result as a normalized record. */
export function europepmcRecord(r: EuropepmcResult): McpRecord {
  const recordId = `${r.source}:${r.id}`;
  const url = europepmcUrl(r.source, r.id);
  const identifiers: Record<string, string> = { europepmc: recordId };
  if (r.pmid) identifiers.pmid = r.pmid;
  if (r.pmcid) identifiers.pmcid = r.pmcid;
  if (r.doi) identifiers.doi = r.doi;
  const year = /^\d{4}$/.test(r.pubYear ?? '') ? Number(r.pubYear) : undefined;
  const venue = r.journalInfo?.journal?.isoabbreviation ?? r.journalTitle ?? r.journalInfo?.journal?.title;
  const authors = authorsOf(r);
  const title = europepmcText(r.title);
  return {
    id: `${SOURCE_ID}:${recordId}`,
    sourceId: SOURCE_ID,
    sourceRecordId: recordId,
    kind: r.source === 'PPR' ? 'preprint' : 'article',
    title,
    url,
    identifiers,
    citation: {
      text: citationText({ authors, year, title, venue, doi: r.doi, recordId }),
      authors,
      ...(year ? { year } : {}),
      ...(venue ? { venue } : {}),
      ...(r.doi ? { doi: r.doi } : {}),
      url,
    },
    ...(r.abstractText ? { summary: europepmcText(r.abstractText) } : {}),
    ...(r.firstPublicationDate ? { published: r.firstPublicationDate } : {}),
    fields: resultFields(r),
  };
}

function resultFields(r: EuropepmcResult): JsonValue {
  return {
    source: r.source,
    publicationTypes: r.pubTypeList?.pubType ?? (r.pubType ? r.pubType.split(/;\s*/) : []),
    openAccess: r.isOpenAccess === 'Y',
    inPMC: r.inPMC === 'Y',
    hasPDF: r.hasPDF === 'Y',
    license: r.license ?? null,
    citedByCount: r.citedByCount ?? null,
    volume: r.journalInfo?.volume ?? r.journalVolume ?? null,
    issue: r.journalInfo?.issue ?? r.issue ?? null,
    pages: r.pageInfo ?? null,
    mesh: (r.meshHeadingList?.meshHeading ?? []).map((m) => m.descriptorName ?? '').filter(Boolean),
    keywords: r.keywordList?.keyword ?? [],
    fullTextLinks: (r.fullTextUrlList?.fullTextUrl ?? []).map((u) => ({
      url: u.url,
      style: u.documentStyle ?? null,
      availability: u.availabilityCode ?? null,
    })),
  };
}

/** Open-access PDFs (availability "OA") that Europe PMC itself serves; free-to-read and publisher links stay in fields. */
export function europepmcPdfCandidates(r: EuropepmcResult): ArtifactCandidate[] {
  const recordId = `${r.source}:${r.id}`;
  const license = r.license ? `${r.license.toUpperCase()} (open access, per Europe PMC)` : 'Open access per Europe PMC; see the article for its license';
  return (r.fullTextUrlList?.fullTextUrl ?? [])
    .filter((u) => u.documentStyle === 'pdf' && u.availabilityCode === 'OA' && isEuropepmcHttps(u.url))
    .map((u) => ({
      id: candidateId(SOURCE_ID, recordId, u.url),
      sourceId: SOURCE_ID,
      sourceRecordId: recordId,
      url: u.url,
      kind: 'pdf',
      mediaType: 'application/pdf',
      filename: safeFilename(`${r.pmcid ?? `${r.source}-${r.id}`}.pdf`),
      license,
    }));
}

function isEuropepmcHttps(link: string): boolean {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && isHostAllowed(url.hostname, PDF_HOSTS);
  } catch {
    return false;
  }
}

/** Core results list authors; lite results only carry "Lee MS, Green R, …, Glover JN." */
function authorsOf(r: EuropepmcResult): string[] {
  const listed = (r.authorList?.author ?? []).map((a) => a.fullName ?? a.collectiveName ?? '').filter(Boolean);
  if (listed.length > 0) return listed;
  return (r.authorString ?? '').replace(/\.$/, '').split(/,\s*/).map((a) => a.trim()).filter(Boolean);
}

function citationText(c: { authors: string[]; year?: number; title: string; venue?: string; doi?: string; recordId: string }): string {
  const authors = c.authors.length > 3 ? `${c.authors.slice(0, 3).join(', ')}, et al.` : c.authors.join(', ');
  const title = c.title.endsWith('.') ? c.title : `${c.title}.`;
  const tail = [c.venue ? `${c.venue}.` : '', c.doi ? `doi:${c.doi}.` : '', `Europe PMC ${c.recordId}.`].filter(Boolean).join(' ');
  return `${authors || 'Unknown authors'} (${c.year ?? 'n.d.'}). ${title} ${tail}`;
}
