import { describe, expect, it } from 'vitest';
import { pubmedSource } from '../../sources/pubmed/index.js';
import { pubmedReplay } from '../fixtures/providers/pubmedReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(pubmedSource, pubmedReplay, (url) => ({
  baseUrl: `${url}/entrez/eutils`,
  settings: { NCBI_API_KEY: 'test-key', NCBI_EMAIL: 'dev@example.org', PMC_OA_BASE_URL: `${url}/pmc-oa` },
}));

/** PubMed results: the shared checks, and every record's landing page is its pubmed.ncbi.nlm.nih.gov page. */
const expectPubmedResult = (result: SourceToolResult) =>
  expectValidResult(result, pubmedSource, { recordUrl: (r) => `https://pubmed.ncbi.nlm.nih.gov/${r.sourceRecordId}/` });

describeSourceContract(pubmedSource, { tools: ['get', 'search'] });

describe('PubMed source: registration', () => {
  it('shares the NCBI limiter group, spaced one call per second', () => {
    expect(pubmedSource.manifest.limits).toMatchObject({ limitGroup: 'ncbi', minTimeMs: 1000 });
  });
});

describe('PubMed search', () => {
  it('returns records for the ESearch ids, fetched with EFetch, and identifies the caller to NCBI', async () => {
    const out = expectPubmedResult(await source.call('search', { query: 'cryopreservation[ti] OR 13c[ti]', maxResults: 2 }));
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['11748933', '11700088']);
    expect(out.records[0]).toMatchObject({
      id: 'pubmed:11748933',
      kind: 'article',
      identifiers: { pmid: '11748933', doi: '10.1006/cryo.2001.2328' },
      published: '2001-06',
    });
    expect(out.records[0].citation).toMatchObject({ year: 2001, venue: 'Cryobiology', doi: '10.1006/cryo.2001.2328' });
    expect(out.records[0].citation.authors.slice(0, 2)).toEqual(['Taddei AR', 'Barbato F']);
    expect(out.records[1].title).toBe('Proton MRI of (13)C distribution by J and chemical shift editing.');
    expect(out.data).toMatchObject({ count: 2, start: 0, nextStart: null });
    const [esearch, efetch] = [source.requestUrl(-2).searchParams, source.requestUrl().searchParams];
    expect(esearch.get('retmax')).toBe('2');
    expect(efetch.get('id')).toBe('11748933,11700088');
    for (const params of [esearch, efetch]) {
      expect(params.get('tool')).toBe('scigate');
      expect(params.get('api_key')).toBe('test-key');
      expect(params.get('email')).toBe('dev@example.org');
    }
  });

  it('warns about a PMID the search listed but EFetch returned no article for, as get does', async () => {
    const out = expectPubmedResult(await source.call('search', { query: 'withdrawn', maxResults: 2 }));
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['28775130']);
    expect(out.warnings).toContain('PubMed has no article with PMID 11748933');
    expect(out.data).toMatchObject({ count: 2, returned: 1 });
  });

  it('passes the date range and sort, and warns when the 10,000-hit window is reached', async () => {
    const out = expectPubmedResult(
      await source.call('search', { query: 'cancer', start: 9998, maxResults: 50, sort: 'pub_date', minDate: '2020-01', maxDate: '2020/12/31' }),
    );
    expect(source.requestParams(-2)).toMatchObject({
      retstart: '9998',
      retmax: '2',
      sort: 'pub_date',
      datetype: 'pdat',
      mindate: '2020/01',
      maxdate: '2020/12/31',
    });
    expect(out.warnings.join(' ')).toMatch(/first 10000.*end of that window/);
    expect(out.data).toMatchObject({ count: 1843921, nextStart: null });
  });

  it('an empty search is records: [] with the unmatched phrase, and no EFetch', async () => {
    const out = await source.expectRequests(1, async () => expectPubmedResult(await source.call('search', { query: 'abcXYZ' })));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('abcXYZ');
  });

  it('rejects a malformed or half date range before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('search', { query: 'x', minDate: '2020-13', maxDate: '2021' }), 'invalid_input', false).message).toContain('minDate');
      expect(expectToolError(await source.call('search', { query: 'x', minDate: '2020' }), 'invalid_input', false).message).toContain('maxDate');
    });
  });
});

describe('PubMed get', () => {
  it('returns structured abstract, authors, journal, DOI, PMCID and MeSH terms', async () => {
    const out = expectPubmedResult(await source.call('get', { pmids: ['PMID:28775130'], openAccess: false }));
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'pubmed:28775130',
      title: 'Occupational pesticide exposure and subclinical hypothyroidism among male pesticide applicators.',
      identifiers: { pmid: '28775130', doi: '10.1136/oemed-2017-104431', pmcid: 'PMC5771820', nihmsid: 'NIHMS932407' },
      published: '2018-02',
    });
    expect(record.citation).toMatchObject({ year: 2018, venue: 'Occup Environ Med' });
    expect(record.citation.authors[0]).toBe('Lerro CC');
    expect(record.citation.text).toContain('Occup Environ Med 75(2):79-89');
    expect(record.summary.split('\n').map((l: string) => l.split(':')[0])).toEqual(['OBJECTIVES', 'METHODS', 'RESULTS', 'CONCLUSIONS']);
    // inline <sub> markup inside the abstract is flattened to text
    expect(record.fields.abstractSections[2].text).toContain('ORQ3=4.15');
    expect(record.fields.abstractSections[1].nlmCategory).toBe('METHODS');
    expect(out.artifacts).toBeUndefined();
    expect(source.requests.at(-1)).toContain('efetch.fcgi');
  });

  it('offers PMC open-access files with md5 checksums, and none for an article PMC does not call open access', async () => {
    const out = expectPubmedResult(await source.call('get', { pmids: ['36842301', '20516115'] }));
    expect(out.records[0].title).toBe(
      'Precision oncology for BRAF-mutant cancers with BRAF and MEK inhibitors: from melanoma to tissue-agnostic therapy.',
    );
    const pdf = out.artifacts.find((a: any) => a.kind === 'pdf');
    expect(pdf).toMatchObject({
      sourceRecordId: '36842301',
      url: 'https://pmc-oa-opendata.s3.amazonaws.com/PMC9984800.1/PMC9984800.1.pdf',
      mediaType: 'application/pdf',
      filename: 'PMC9984800.1.pdf',
      checksum: { algorithm: 'md5', value: 'a8f50ddb6afab1d124466f93155631a6' },
    });
    expect(pdf.license).toContain('CC BY-NC-ND');
    expect(out.artifacts.map((a: any) => a.kind).sort()).toEqual(['jats-xml', 'media', 'media', 'media', 'pdf', 'text']);
    expect(out.artifacts.every((a: any) => a.sourceRecordId === '36842301')).toBe(true);
    expect(new Set(out.artifacts.map((a: any) => a.id)).size).toBe(out.artifacts.length);
    expect(out.data.openAccess).toEqual([
      { pmid: '36842301', pmcid: 'PMC9984800', openAccess: true, licenseCode: 'CC BY-NC-ND' },
      { pmid: '20516115', pmcid: 'PMC3040717', openAccess: false, licenseCode: 'TDM' },
    ]);
    expect(out.partial).toBeUndefined();
  });

  it('an article missing from the PMC bucket has no candidates; unknown PMIDs are warned about', async () => {
    const out = expectPubmedResult(await source.call('get', { pmids: ['28775130', '11748933'] }));
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['28775130']);
    expect(out.warnings.join(' ')).toContain('11748933');
    expect(out.artifacts).toBeUndefined();
    expect(out.data.openAccess).toEqual([{ pmid: '28775130', pmcid: 'PMC5771820', openAccess: false, licenseCode: null }]);
  });

  it('with the E-utilities base overridden but no PMC_OA_BASE_URL, it never reaches the public bucket', async () => {
    const eutilsOnly = await connectSource(pubmedSource, { baseUrl: `${source.providerUrl}/entrez/eutils` });
    try {
      const before = source.requests.length;
      const out = expectPubmedResult(await eutilsOnly.call('get', { pmids: ['36842301', '20516115'] }));
      expect(out.records).toHaveLength(2);
      expect(out.artifacts).toBeUndefined();
      expect(out.warnings.join(' ')).toContain('PMC_OA_BASE_URL');
      expect(source.requests.slice(before).every((r) => r.startsWith('/entrez/eutils/'))).toBe(true);
    } finally {
      await eutilsOnly.close();
    }
  });

  it('a failed open-access check is a warning and marks the answer partial, not a failed get', async () => {
    const overloaded = await connectSource(pubmedSource, {
      baseUrl: `${source.providerUrl}/entrez/eutils`,
      settings: { PMC_OA_BASE_URL: `${source.providerUrl}/pmc-oa-down` },
    });
    try {
      const out = expectPubmedResult(await overloaded.call('get', { pmids: ['36842301', '20516115'] }));
      expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['36842301', '20516115']);
      expect(out.artifacts).toBeUndefined();
      expect(out.warnings.filter((w: string) => w.startsWith('Could not check PMC open access for '))).toHaveLength(2);
      // Asking again may find the files: the gateway must not cache this answer.
      expect(out.partial).toBe(true);
    } finally {
      await overloaded.close();
    }
  });

  it('rejects malformed PMIDs, naming the field, before any request', async () => {
    await source.expectNoRequests(async () => {
      for (const bad of ['abc', '0123', '1234567890', '12 34']) {
        const error = expectToolError(await source.call('get', { pmids: ['28775130', bad] }), 'invalid_input', false);
        expect(error.message).toContain('pmids[1]');
      }
    });
  });
});

describe('PubMed provider failures', () => {
  it('an <ERROR> inside an HTTP 200 EFetch body is a structured error', async () => {
    const error = expectToolError(await source.call('get', { pmids: ['99999999'] }), 'invalid_input', false);
    expect(error.message).toContain('Neither query_key nor id specified');
  });

  it('an ESearch JSON ERROR from a failing backend is a retryable upstream_error', async () => {
    const error = expectToolError(await source.call('search', { query: 'backend trouble' }), 'upstream_error', true);
    expect(error.message).toContain('Search Backend failed');
  });

  it('HTTP 429 is rate_limited with Retry-After and NCBI\'s reason', async () => {
    const error = expectToolError(await source.call('search', { query: 'rate limited' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(2000);
    expect(error.message).toContain('API rate limit exceeded (limit 3 requests/s)');
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'service down' }), 'upstream_error', true);
  });

  it('a truncated XML document is a retryable upstream_error', async () => {
    const error = expectToolError(await source.call('get', { pmids: ['88888888'], openAccess: false }), 'upstream_error', true);
    expect(error.message).toMatch(/truncated/);
  });

  it('a connection cut mid-body is a retryable upstream_error (a truncated body)', async () => {
    expectToolError(await source.call('search', { query: 'cut connection' }), 'upstream_error', true);
  });
});
