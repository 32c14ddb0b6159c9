import { ProviderError, boundProviderText } from '../shared/providerError.js';
import { normalizeWhitespace } from '../shared/text.js';
import { childOf, childrenOf, parseXml, textOf, type XmlElement } from '../shared/xml.js';
import { arxivIdFromEntryUrl, type ArxivId } from './arxivIds.js';

const ATOM = 'http://www.w3.org/2005/Atom';
const OPENSEARCH = 'http://a9.com/-/spec/opensearch/1.1/';
const ARXIV = 'http://arxiv.org/schemas/atom';
const ERROR_ID_PREFIX = 'arxiv.org/api/errors#';

export interface ArxivEntry {
  id: ArxivId;
  title: string;
  summary: string;
  authors: string[];
  published?: string;
  updated?: string;
  categories: string[];
  primaryCategory?: string;
  comment?: string;
  journalRef?: string;
  doi?: string;
}

export interface ArxivFeed {
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  entries: ArxivEntry[];
}

/** Parses an arXiv Atom feed (2016 legacy and 2025+ formats); an error entry becomes `invalid_input`. */
export function parseArxivFeed(xml: string): ArxivFeed {
  const feed = parseXml(xml, 'arXiv');
  if (feed.ns !== ATOM || feed.local !== 'feed') {
    throw new ProviderError('upstream_error', 'arXiv sent XML that is not an Atom feed', { retryable: true });
  }
  const errorReason = arxivErrorReason(feed);
  if (errorReason) throw new ProviderError('invalid_input', `arXiv rejected the request: ${errorReason}`);
  const entries = childrenOf(feed, ATOM, 'entry').map(parseEntry);
  return {
    totalResults: totalResultsOf(feed),
    startIndex: intOf(childOf(feed, OPENSEARCH, 'startIndex')),
    itemsPerPage: intOf(childOf(feed, OPENSEARCH, 'itemsPerPage')),
    entries: entries.filter((e): e is ArxivEntry => e !== undefined),
  };
}

/** The provider's reason from an error feed (arXiv answers a malformed id with an error entry). */
export function arxivErrorReason(feed: XmlElement): string | undefined {
  const errorEntry = childrenOf(feed, ATOM, 'entry').find((e) => textOf(childOf(e, ATOM, 'id')).includes(ERROR_ID_PREFIX));
  if (!errorEntry) return undefined;
  return normalizeWhitespace(textOf(childOf(errorEntry, ATOM, 'summary'))) || 'unspecified error';
}

/** Reads the reason out of an error body, for HTTP 400 answers; empty when the body is not a feed. */
export function describeArxivError(body: string): string {
  try {
    return arxivErrorReason(parseXml(body, 'arXiv')) ?? '';
  } catch {
    return '';
  }
}

function parseEntry(entry: XmlElement): ArxivEntry | undefined {
  const id = arxivIdFromEntryUrl(textOf(childOf(entry, ATOM, 'id')));
  if (!id) return undefined;
  const optional = (el: XmlElement | undefined) => normalizeWhitespace(textOf(el)) || undefined;
  const parsed: ArxivEntry = {
    id,
    title: normalizeWhitespace(textOf(childOf(entry, ATOM, 'title'))),
    summary: normalizeWhitespace(textOf(childOf(entry, ATOM, 'summary'))),
    authors: childrenOf(entry, ATOM, 'author')
      .map((a) => normalizeWhitespace(textOf(childOf(a, ATOM, 'name'))))
      .filter(Boolean),
    categories: childrenOf(entry, ATOM, 'category')
      .map((c) => c.attrs.term ?? '')
      .filter(Boolean),
  };
  const extras = {
    published: optional(childOf(entry, ATOM, 'published')),
    updated: optional(childOf(entry, ATOM, 'updated')),
    primaryCategory: childOf(entry, ARXIV, 'primary_category')?.attrs.term,
    comment: optional(childOf(entry, ARXIV, 'comment')),
    journalRef: optional(childOf(entry, ARXIV, 'journal_ref')),
    doi: optional(childOf(entry, ARXIV, 'doi')),
  };
  for (const [key, value] of Object.entries(extras)) {
    if (value !== undefined) (parsed as unknown as Record<string, string>)[key] = value;
  }
  return parsed;
}

/**
 * Every arXiv API answer, an empty one included, counts its results; an Atom feed without the
 * count (a proxy's or mirror's feed) would otherwise pass for "nothing found".
 */
function totalResultsOf(feed: XmlElement): number {
  const text = textOf(childOf(feed, OPENSEARCH, 'totalResults')).trim();
  if (!/^\d+$/.test(text)) {
    const found = text ? `an unreadable opensearch:totalResults ("${boundProviderText(text)}")` : 'no opensearch:totalResults';
    throw new ProviderError('upstream_error', `arXiv sent an Atom feed with ${found}, so it is not an arXiv API answer`, {
      retryable: true,
    });
  }
  return Number(text);
}

function intOf(el: XmlElement | undefined): number {
  const n = Number.parseInt(textOf(el).trim(), 10);
  return Number.isFinite(n) ? n : 0;
}
