import type { McpRecord } from '../../catalog/index.js';
import type { PubmedArticle } from './parsePubmedArticles.js';

const SOURCE_ID = 'pubmed';

/** The canonical PubMed page of a PMID. */
export function pubmedUrl(pmid: string): string {
  return `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
}

/** One PubMed article as a normalized record with an NLM-style citation. */
export function pubmedRecord(article: PubmedArticle): McpRecord {
  const url = pubmedUrl(article.pmid);
  const identifiers: Record<string, string> = { pmid: article.pmid };
  if (article.doi) identifiers.doi = article.doi;
  if (article.pmcid) identifiers.pmcid = article.pmcid;
  if (article.nihmsid) identifiers.nihmsid = article.nihmsid;
  const venue = article.journalAbbreviation ?? article.journal;
  return {
    id: `${SOURCE_ID}:${article.pmid}`,
    sourceId: SOURCE_ID,
    sourceRecordId: article.pmid,
    kind: 'article',
    title: article.title,
    url,
    identifiers,
    citation: {
      text: citationText(article),
      authors: article.authors,
      ...(article.year ? { year: article.year } : {}),
      ...(venue ? { venue } : {}),
      ...(article.doi ? { doi: article.doi } : {}),
      url,
    },
    ...(article.abstract.length > 0 ? { summary: abstractText(article) } : {}),
    ...(article.published ? { published: article.published } : {}),
    fields: {
      abstractSections: article.abstract.map((s) => ({ label: s.label ?? null, nlmCategory: s.nlmCategory ?? null, text: s.text })),
      journal: article.journal ?? null,
      volume: article.volume ?? null,
      issue: article.issue ?? null,
      pages: article.pages ?? null,
      mesh: article.mesh.map((m) => ({ descriptor: m.descriptor, ui: m.ui ?? null, majorTopic: m.majorTopic, qualifiers: m.qualifiers })),
      keywords: article.keywords,
      publicationTypes: article.publicationTypes,
      language: article.language ?? null,
      pmcUrl: article.pmcid ? `https://pmc.ncbi.nlm.nih.gov/articles/${article.pmcid}/` : null,
    },
  };
}

/** Structured abstracts keep their labels ("OBJECTIVES: …"), one section per line. */
function abstractText(article: PubmedArticle): string {
  return article.abstract.map((s) => (s.label ? `${s.label}: ${s.text}` : s.text)).join('\n');
}

function citationText(a: PubmedArticle): string {
  const authors = a.authors.length > 3 ? `${a.authors.slice(0, 3).join(', ')}, et al.` : a.authors.join(', ');
  const volume = a.volume ? `${a.volume}${a.issue ? `(${a.issue})` : ''}` : '';
  const location = [volume, a.pages].filter(Boolean).join(':');
  const venue = [a.journalAbbreviation ?? a.journal, location].filter(Boolean).join(' ');
  const title = a.title.endsWith('.') ? a.title : `${a.title}.`;
  const tail = [venue ? `${venue}.` : '', a.doi ? `doi:${a.doi}.` : '', `PMID: ${a.pmid}.`].filter(Boolean).join(' ');
  return `${authors || 'Unknown authors'} (${a.year ?? 'n.d.'}). ${title} ${tail}`;
}
