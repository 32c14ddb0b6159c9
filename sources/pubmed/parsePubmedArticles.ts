import { ProviderError } from '../shared/providerError.js';
import { normalizeWhitespace } from '../shared/text.js';
import { childOf, childrenOf, textOf, type XmlElement } from '../shared/xml.js';

/** One labelled part of a structured abstract (OBJECTIVES, METHODS …); unlabelled abstracts have one part. */
export interface AbstractSection {
  label?: string;
  nlmCategory?: string;
  text: string;
}

/** One MeSH heading: descriptor, qualifiers, and whether it is a major topic of the article. */
export interface MeshTerm {
  descriptor: string;
  ui?: string;
  majorTopic: boolean;
  qualifiers: string[];
}

/** The fields of one EFetch PubmedArticle (or PubmedBookArticle) that records and citations use. */
export interface PubmedArticle {
  pmid: string;
  title: string;
  abstract: AbstractSection[];
  /** NLM citation style: "Lerro CC"; collective names as written. */
  authors: string[];
  journal?: string;
  journalAbbreviation?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  year?: number;
  /** ISO date, as precise as PubMed states it (YYYY, YYYY-MM or YYYY-MM-DD). */
  published?: string;
  doi?: string;
  pmcid?: string;
  nihmsid?: string;
  mesh: MeshTerm[];
  keywords: string[];
  publicationTypes: string[];
  language?: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Parses an EFetch PubmedArticleSet; any other root is a provider error. */
export function parsePubmedArticles(root: XmlElement): PubmedArticle[] {
  if (root.local !== 'PubmedArticleSet') {
    throw new ProviderError('upstream_error', `PubMed sent <${root.local}> where a PubmedArticleSet was expected`, {
      retryable: true,
    });
  }
  const articles = childrenOf(root, '', 'PubmedArticle').map(parseJournalArticle);
  const books = childrenOf(root, '', 'PubmedBookArticle').map(parseBookArticle);
  return [...articles, ...books].filter((a): a is PubmedArticle => a !== undefined);
}

function parseJournalArticle(el: XmlElement): PubmedArticle | undefined {
  const citation = childOf(el, '', 'MedlineCitation');
  const article = citation && childOf(citation, '', 'Article');
  const pmid = clean(path(citation, 'PMID'));
  if (!citation || !article || !pmid) return undefined;
  const journal = childOf(article, '', 'Journal');
  const issue = journal && childOf(journal, '', 'JournalIssue');
  const date = readDate(issue && childOf(issue, '', 'PubDate'));
  const ids = articleIds(path(el, 'PubmedData', 'ArticleIdList'));
  const doi = childrenOf(article, '', 'ELocationID').find((e) => e.attrs.EIdType === 'doi');
  return withOptional(
    {
      pmid,
      title: clean(childOf(article, '', 'ArticleTitle')),
      abstract: readAbstract(childOf(article, '', 'Abstract')),
      authors: readAuthors(childOf(article, '', 'AuthorList')),
      mesh: readMesh(childOf(citation, '', 'MeshHeadingList')),
      keywords: childrenOf(citation, '', 'KeywordList').flatMap((k) => childrenOf(k, '', 'Keyword').map(clean)).filter(Boolean),
      publicationTypes: path(article, 'PublicationTypeList')
        ? childrenOf(path(article, 'PublicationTypeList')!, '', 'PublicationType').map(clean)
        : [],
    },
    {
      journal: clean(path(journal, 'Title')),
      journalAbbreviation: clean(path(journal, 'ISOAbbreviation')) || clean(path(citation, 'MedlineJournalInfo', 'MedlineTA')),
      volume: clean(path(issue, 'Volume')),
      issue: clean(path(issue, 'Issue')),
      pages: clean(path(article, 'Pagination', 'MedlinePgn')),
      year: date.year,
      published: date.iso,
      doi: clean(doi) || ids.doi,
      pmcid: ids.pmc,
      nihmsid: ids.mid,
      language: clean(path(article, 'Language')),
    },
  );
}

function parseBookArticle(el: XmlElement): PubmedArticle | undefined {
  const doc = childOf(el, '', 'BookDocument');
  const pmid = clean(path(doc, 'PMID'));
  if (!doc || !pmid) return undefined;
  const book = childOf(doc, '', 'Book');
  const date = readDate(path(book, 'PubDate'));
  const ids = articleIds(path(el, 'PubmedBookData', 'ArticleIdList'));
  return withOptional(
    {
      pmid,
      title: clean(childOf(doc, '', 'ArticleTitle')) || clean(path(book, 'BookTitle')),
      abstract: readAbstract(childOf(doc, '', 'Abstract')),
      authors: readAuthors(childOf(doc, '', 'AuthorList') ?? path(book, 'AuthorList')),
      mesh: [],
      keywords: [],
      publicationTypes: ['Book'],
    },
    { journal: clean(path(book, 'BookTitle')), year: date.year, published: date.iso, doi: ids.doi, pmcid: ids.pmc },
  );
}

function readAbstract(abstract: XmlElement | undefined): AbstractSection[] {
  if (!abstract) return [];
  return childrenOf(abstract, '', 'AbstractText')
    .map((part) => {
      const section: AbstractSection = { text: clean(part) };
      if (part.attrs.Label) section.label = part.attrs.Label;
      if (part.attrs.NlmCategory) section.nlmCategory = part.attrs.NlmCategory;
      return section;
    })
    .filter((s) => s.text);
}

function readAuthors(list: XmlElement | undefined): string[] {
  if (!list) return [];
  return childrenOf(list, '', 'Author')
    .map((a) => {
      const collective = clean(childOf(a, '', 'CollectiveName'));
      if (collective) return collective;
      const last = clean(childOf(a, '', 'LastName'));
      const initials = clean(childOf(a, '', 'Initials')) || clean(childOf(a, '', 'ForeName'));
      return [last, initials].filter(Boolean).join(' ');
    })
    .filter(Boolean);
}

function readMesh(list: XmlElement | undefined): MeshTerm[] {
  if (!list) return [];
  return childrenOf(list, '', 'MeshHeading').map((heading) => {
    const descriptor = childOf(heading, '', 'DescriptorName');
    const qualifiers = childrenOf(heading, '', 'QualifierName');
    const term: MeshTerm = {
      descriptor: clean(descriptor),
      majorTopic: descriptor?.attrs.MajorTopicYN === 'Y' || qualifiers.some((q) => q.attrs.MajorTopicYN === 'Y'),
      qualifiers: qualifiers.map(clean),
    };
    if (descriptor?.attrs.UI) term.ui = descriptor.attrs.UI;
    return term;
  });
}

function articleIds(list: XmlElement | undefined): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const id of list ? childrenOf(list, '', 'ArticleId') : []) {
    const type = id.attrs.IdType;
    if (type && !ids[type]) ids[type] = clean(id);
  }
  return ids;
}

/** PubDate is Year/Month/Day, or a free-text MedlineDate such as "1998 Dec-1999 Jan". */
function readDate(el: XmlElement | undefined): { year?: number; iso?: string } {
  if (!el) return {};
  const medline = clean(childOf(el, '', 'MedlineDate'));
  const yearText = clean(childOf(el, '', 'Year')) || /\b(\d{4})\b/.exec(medline)?.[1] || '';
  if (!/^\d{4}$/.test(yearText)) return {};
  const month = monthNumber(clean(childOf(el, '', 'Month')));
  const day = clean(childOf(el, '', 'Day'));
  let iso = yearText;
  if (month) iso += `-${month}${/^\d{1,2}$/.test(day) ? `-${day.padStart(2, '0')}` : ''}`;
  return { year: Number(yearText), iso };
}

function monthNumber(text: string): string | undefined {
  if (/^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= 12) return text.padStart(2, '0');
  const index = MONTHS.indexOf(text.slice(0, 3).toLowerCase());
  return index >= 0 ? String(index + 1).padStart(2, '0') : undefined;
}

function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = el;
  for (const name of names) current = current && childOf(current, '', name);
  return current;
}

/** Text of mixed content (`<i>`, `<sup>`, MathML inside titles and abstracts) as plain text. */
function clean(el: XmlElement | undefined): string {
  return normalizeWhitespace(textOf(el));
}

function withOptional(
  base: Omit<PubmedArticle, 'year'>,
  optional: Partial<Record<keyof PubmedArticle, string | number | undefined>>,
): PubmedArticle {
  const article = { ...base } as PubmedArticle & Record<string, unknown>;
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') article[key] = value;
  }
  return article;
}
