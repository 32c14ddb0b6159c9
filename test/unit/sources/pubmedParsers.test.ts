import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEutilsClient, eutilsMessageError, parseXml } from '../../../sources/shared/index.js';
import { parsePubmedArticles } from '../../../sources/pubmed/parsePubmedArticles.js';

const fixture = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/sources/pubmed/${file}`, import.meta.url)), 'utf8');

/** A client whose injected fetch answers every request with one body, recording the URLs asked for. */
function clientAnswering(body: string, status = 200) {
  const urls: string[] = [];
  const fetch = (async (url: string) => {
    urls.push(url);
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { urls, eutils: createEutilsClient({ fetch, userAgent: 'test', now: () => new Date(), pacer: () => async () => {} }, { db: 'pubmed', provider: 'PubMed' }) };
}

describe('E-utilities client on captured ESearch JSON', () => {
  it('reads string counts and keeps the id order of a 50-id page', async () => {
    const { eutils, urls } = clientAnswering(fixture('esearch-normal-retmode-json.json'));
    const page = await eutils.esearch({ term: 'nlp', retstart: 0, retmax: 50, sort: 'pub_date' });
    expect(page.count).toBe(1834);
    expect(page.ids).toHaveLength(50);
    expect(page.ids.slice(0, 2)).toEqual(['36006759', '38799249']);
    expect(urls[0]).toMatch(/^https:\/\/eutils\.ncbi\.nlm\.nih\.gov\/entrez\/eutils\/esearch\.fcgi\?db=pubmed&/);
    expect(urls[0]).toContain('tool=scigate');
    expect(urls[0]).not.toContain('api_key');
  });

  it('reads the byte-faithful compact capture with its query translation', async () => {
    const page = await clientAnswering(fixture('esearch-json-raw-3-hits.json')).eutils.esearch({ term: 'x', retstart: 0, retmax: 100 });
    expect(page).toMatchObject({ count: 3, ids: ['32150788', '29373119', '17427195'], warnings: [] });
    expect(page.queryTranslation).toBe('"PTEN"[Title/Abstract] AND "D326N"[Title/Abstract]');
  });

  it('a body that is not JSON is a retryable upstream_error', async () => {
    const { eutils } = clientAnswering(fixture('esearch-json-raw-3-hits.json').slice(0, 60));
    await expect(eutils.esearch({ term: 'x', retstart: 0, retmax: 1 })).rejects.toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it('ESummary per-uid errors become missing uids, in NCBI order', async () => {
    const body = JSON.stringify({
      header: { type: 'esummary', version: '0.3' },
      result: { uids: ['20', '3', '999999'], '3': { uid: '3' }, '20': { uid: '20' }, '999999': { uid: '999999', error: 'cannot get document summary' } },
    });
    const summary = await clientAnswering(body).eutils.esummary(['20', '3', '999999']);
    expect(summary.docs.map((d: any) => d.uid)).toEqual(['20', '3']);
    expect(summary.missing).toEqual(['999999']);
  });
});

describe('E-utilities error classification', () => {
  it('separates retryable NCBI failures from bad input', () => {
    expect(eutilsMessageError('PubMed', 'API rate limit exceeded')).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(eutilsMessageError('PubMed', 'Search Backend failed: timeout')).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(eutilsMessageError('PubMed', 'Invalid db name specified: nothing')).toMatchObject({ code: 'invalid_input', retryable: false });
  });
});

describe('parsePubmedArticles', () => {
  it('reads MeSH headings with major topics and qualifiers from the captured EFetch set', () => {
    const [first] = parsePubmedArticles(parseXml(fixture('efetch-two-records.xml'), 'PubMed'));
    expect(first!.mesh).toHaveLength(11);
    expect(first!.mesh.find((m) => m.descriptor === 'Cryopreservation')).toEqual({
      descriptor: 'Cryopreservation',
      ui: 'D015925',
      majorTopic: true,
      qualifiers: ['methods'],
    });
    expect(first!.publicationTypes).toContain('Journal Article');
    expect(first!.abstract).toHaveLength(1);
    expect(first!.abstract[0]!.label).toBeUndefined();
    expect(first!.authors[0]).toBe('Taddei AR');
  });

  it('reads a book chapter (PubmedBookArticle, built from the PubMed DTD) and a MedlineDate year', () => {
    const xml = `<PubmedArticleSet><PubmedBookArticle><BookDocument><PMID Version="1">20301295</PMID>
      <ArticleTitle>BRCA1- and <i>BRCA2</i>-Associated Hereditary Breast and Ovarian Cancer</ArticleTitle>
      <Book><BookTitle>GeneReviews<sup>®</sup></BookTitle><PubDate><MedlineDate>1993-2025</MedlineDate></PubDate></Book>
      <AuthorList><Author><LastName>Petrucelli</LastName><Initials>N</Initials></Author></AuthorList></BookDocument>
      <PubmedBookData><ArticleIdList><ArticleId IdType="bookaccession">NBK1247</ArticleId></ArticleIdList></PubmedBookData>
      </PubmedBookArticle></PubmedArticleSet>`;
    const [book] = parsePubmedArticles(parseXml(xml, 'PubMed'));
    expect(book).toMatchObject({
      pmid: '20301295',
      title: 'BRCA1- and BRCA2-Associated Hereditary Breast and Ovarian Cancer',
      journal: 'GeneReviews®',
      year: 1993,
      authors: ['Petrucelli N'],
    });
  });

  it('any root other than PubmedArticleSet is a provider error', () => {
    expect(() => parsePubmedArticles(parseXml('<eFetchResult/>', 'PubMed'))).toThrow(/PubmedArticleSet/);
  });
});
