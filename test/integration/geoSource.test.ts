import { describe, expect, it } from 'vitest';
import { geoSource } from '../../sources/geo/index.js';
import { geoReplay } from '../fixtures/providers/geoReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const MATRIX_93374 = 'https://ftp.ncbi.nlm.nih.gov/geo/series/GSE93nnn/GSE93374/matrix/GSE93374_series_matrix.txt.gz';
const source = withReplayedSource(geoSource, geoReplay, (url) => ({
  baseUrl: `${url}/entrez/eutils`,
  settings: { GEO_QUERY_BASE_URL: `${url}/geo/query` },
}));

/** GEO results: the shared checks, accession pages as record URLs, and every file inside its own accession's folder. */
function expectGeoResult(result: SourceToolResult) {
  const out = expectValidResult(result, geoSource, {
    recordUrl: (r) => `https://www.ncbi.nlm.nih.gov/geo/query/acc.cgi?acc=${r.sourceRecordId}`,
  });
  for (const candidate of out.artifacts ?? []) expect(candidate.url).toContain(`/${candidate.sourceRecordId}/`);
  return out;
}

describeSourceContract(geoSource, { tools: ['get', 'search'] });

describe('GEO source: registration', () => {
  it('shares the NCBI limiter group, spaced one call per second', () => {
    expect(geoSource.manifest.limits).toMatchObject({ limitGroup: 'ncbi', minTimeMs: 1000 });
  });
});

describe('GEO search', () => {
  it('maps ESearch uids to accessions through ESummary and offers the series matrix', async () => {
    const out = expectGeoResult(await source.call('search', { query: 'GSE93374[GEO Accession]', maxResults: 1 }));
    expect(source.requestParams()).toMatchObject({ db: 'gds', id: '200093374', retmode: 'json', tool: 'scigate' });
    expect(out.records[0]).toMatchObject({
      id: 'geo:GSE93374',
      kind: 'dataset',
      title: 'A Molecular Census of Arcuate Hypothalamus and Median Eminence Cell Types',
      identifiers: { geo: 'GSE93374', geoUid: '200093374', bioproject: 'PRJNA360829', pmid: '28166221' },
      published: '2017-01-31',
    });
    expect(out.records[0].citation).toMatchObject({ year: 2017, venue: 'Gene Expression Omnibus (GEO)' });
    expect(out.records[0].fields).toMatchObject({
      platforms: ['GPL19057'],
      sampleCount: 11,
      taxon: 'Mus musculus',
      ftpFolder: 'https://ftp.ncbi.nlm.nih.gov/geo/series/GSE93nnn/GSE93374/',
    });
    expect(out.artifacts).toEqual([expect.objectContaining({ url: MATRIX_93374, kind: 'series-matrix', sourceRecordId: 'GSE93374' })]);
    expect(out.data).toMatchObject({ count: 13, start: 0, nextStart: 1 });
  });

  it('adds entry type and organism as field tags; an empty search makes no ESummary call', async () => {
    const out = await source.expectRequests(1, async () =>
      expectGeoResult(await source.call('search', { query: 'nothing like this', entryType: 'gse', organism: 'Mus musculus' })),
    );
    expect(out.records).toEqual([]);
    expect(out.artifacts).toBeUndefined();
  });

  it('rejects an organism that is not a name before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('search', { query: 'x', organism: 'x"[ALL] OR "y' }), 'invalid_input', false).message).toContain('organism');
    });
  });
});

describe('GEO get', () => {
  it('fetches a series by its uid (200000000 + n) without listing files when asked not to', async () => {
    const out = await source.expectRequests(1, async () => expectGeoResult(await source.call('get', { accessions: ['gse93374'], files: false })));
    expect(source.requestParams().id).toBe('200093374');
    expect(out.records.map((r: any) => r.id)).toEqual(['geo:GSE93374']);
    expect(out.artifacts.map((a: any) => a.url)).toEqual([MATRIX_93374]);
  });

  it('lists supplementary files from the SOFT text, rewritten from ftp:// to https://', async () => {
    const out = expectGeoResult(await source.call('get', { accessions: ['GSE105845'] }));
    expect(source.requestParams()).toMatchObject({ acc: 'GSE105845', targ: 'self', form: 'text' });
    expect(out.records[0]).toMatchObject({ id: 'geo:GSE105845', title: 'microRNA-seq from forebrain (ENCSR715QTV)' });
    expect(out.artifacts).toHaveLength(2);
    expect(out.partial).toBeUndefined();
    expect(out.artifacts[1]).toMatchObject({
      url: 'https://ftp.ncbi.nlm.nih.gov/geo/series/GSE105nnn/GSE105845/suppl/GSE105845_RAW.tar',
      kind: 'supplementary',
      mediaType: 'application/x-tar',
      filename: 'GSE105845_RAW.tar',
    });
    expect(out.artifacts[0].url).toBe('https://ftp.ncbi.nlm.nih.gov/geo/series/GSE105nnn/GSE105845/matrix/GSE105845_series_matrix.txt.gz');
  });

  it('a failed file listing (an HTML page with status 200) is a warning, not a failed get; a missing accession is warned about', async () => {
    const out = expectGeoResult(await source.call('get', { accessions: ['GSE93374', 'GSM2452128'] }));
    expect(source.requestParams(-2).id).toBe('200093374,302452128');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['GSE93374']);
    expect(out.warnings.join(' ')).toContain('GSM2452128');
    expect(out.warnings.join(' ')).toMatch(/Could not list the supplementary files of GSE93374: GEO answered without the SOFT text of GSE93374/);
    // Asking again may list them: the gateway must not cache this answer.
    expect(out.partial).toBe(true);
  });

  it('with the E-utilities base overridden but no GEO_QUERY_BASE_URL, it lists no files and says why', async () => {
    const eutilsOnly = await connectSource(geoSource, { baseUrl: `${source.providerUrl}/entrez/eutils` });
    try {
      const out = await source.expectRequests(1, async () => expectGeoResult(await eutilsOnly.call('get', { accessions: ['GSE105845'] })));
      expect(out.artifacts.map((a: any) => a.kind)).toEqual(['series-matrix']);
      expect(out.warnings.join(' ')).toContain('GEO_QUERY_BASE_URL');
    } finally {
      await eutilsOnly.close();
    }
  });

  it('rejects malformed accessions, naming the field, before any request', async () => {
    await source.expectNoRequests(async () => {
      for (const bad of ['GSE', 'GSX123', 'GSE12a', 'GSE0', 'PRJNA360829']) {
        expect(expectToolError(await source.call('get', { accessions: ['GSE93374', bad] }), 'invalid_input', false).message).toContain('accessions[1]');
      }
    });
  });
});

describe('GEO provider failures', () => {
  it('an ESearch ERROR inside an HTTP 200 body is a structured, retryable error', async () => {
    expect(expectToolError(await source.call('search', { query: 'backend trouble' }), 'upstream_error', true).message).toContain('Search Backend failed');
  });

  it('HTTP 429 is rate_limited with Retry-After', async () => {
    expect(expectToolError(await source.call('get', { accessions: ['GSE1'] }), 'rate_limited', true).retryAfterMs).toBe(3000);
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('get', { accessions: ['GSE2'] }), 'upstream_error', true);
  });

  it('a truncated ESummary body is a retryable upstream_error', async () => {
    expect(expectToolError(await source.call('get', { accessions: ['GSE3'] }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
