import type { ArtifactCandidate, McpRecord } from '../../catalog/index.js';
import { candidateId, safeFilename } from '../shared/candidateId.js';
import { formatArxivId } from './arxivIds.js';
import type { ArxivEntry } from './parseArxivFeed.js';

const SOURCE_ID = 'arxiv';
const PDF_LICENSE = 'Per-paper arXiv e-print license (see the abstract page); most are the arXiv non-exclusive distribution license.';

/** One arXiv entry as a normalized record, with its canonical abstract-page URL. */
export function arxivRecord(entry: ArxivEntry): McpRecord {
  const versioned = formatArxivId(entry.id);
  const url = `https://arxiv.org/abs/${versioned}`;
  const year = entry.published ? Number(entry.published.slice(0, 4)) : undefined;
  const identifiers: Record<string, string> = { arxiv: entry.id.base };
  if (entry.id.version) identifiers.arxivVersion = versioned;
  if (entry.doi) identifiers.doi = entry.doi;
  return {
    id: `${SOURCE_ID}:${versioned}`,
    sourceId: SOURCE_ID,
    sourceRecordId: versioned,
    kind: 'preprint',
    title: entry.title,
    url,
    identifiers,
    citation: {
      text: citationText(entry, versioned, year),
      authors: entry.authors,
      ...(year ? { year } : {}),
      venue: entry.journalRef ?? 'arXiv',
      ...(entry.doi ? { doi: entry.doi } : {}),
      url,
    },
    ...(entry.summary ? { summary: entry.summary } : {}),
    ...(entry.published ? { published: entry.published.slice(0, 10) } : {}),
    fields: {
      categories: entry.categories,
      primaryCategory: entry.primaryCategory ?? null,
      updated: entry.updated ?? null,
      comment: entry.comment ?? null,
      journalRef: entry.journalRef ?? null,
    },
  };
}

/** The PDF of the exact version the record describes, on arxiv.org. */
export function arxivPdfCandidate(entry: ArxivEntry): ArtifactCandidate {
  const versioned = formatArxivId(entry.id);
  const url = `https://arxiv.org/pdf/${versioned}`;
  return {
    id: candidateId(SOURCE_ID, versioned, url),
    sourceId: SOURCE_ID,
    sourceRecordId: versioned,
    url,
    kind: 'pdf',
    mediaType: 'application/pdf',
    filename: safeFilename(`arxiv-${versioned}.pdf`),
    license: PDF_LICENSE,
  };
}

function citationText(entry: ArxivEntry, versioned: string, year: number | undefined): string {
  const authors =
    entry.authors.length > 3 ? `${entry.authors.slice(0, 3).join(', ')} et al.` : entry.authors.join(', ');
  return `${authors || 'Unknown authors'} (${year ?? 'n.d.'}). ${entry.title}. arXiv:${versioned}.`;
}
