import { describe, expect, it } from 'vitest';
import { clinvarSource } from '../../sources/clinvar/index.js';
import { clinvarReplay } from '../fixtures/providers/clinvarReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const NAME = 'NM_014855.3(AP5Z1):c.80_83delinsTGCTGTAAACTGTAACTGTAAA (p.Arg27_Ile28delinsLeuLeuTer)';
const source = withReplayedSource(clinvarSource, clinvarReplay, (url) => ({ baseUrl: `${url}/entrez/eutils` }));

/** ClinVar results: the shared checks, VCV record ids with their variation page, and no file candidates. */
function expectClinvarResult(result: SourceToolResult) {
  const out = expectValidResult(result, clinvarSource, {
    recordUrl: (r) => `https://www.ncbi.nlm.nih.gov/clinvar/variation/${r.identifiers.clinvarVariationId}/`,
  });
  for (const record of out.records) expect(record.sourceRecordId).toMatch(/^VCV\d{9}$/);
  expect(out.artifacts).toBeUndefined();
  return out;
}

describeSourceContract(clinvarSource, { tools: ['get', 'search'] });

describe('ClinVar source: registration', () => {
  it('shares the NCBI limiter group, spaced one call per second', () => {
    expect(clinvarSource.manifest.limits).toMatchObject({ limitGroup: 'ncbi', minTimeMs: 1000 });
  });
});

describe('ClinVar search', () => {
  it('turns gene and condition into field tags and returns summaries with classifications', async () => {
    const out = expectClinvarResult(await source.call('search', { gene: 'AP5Z1', condition: 'Hereditary spastic paraplegia 48' }));
    const esearch = source.requestUrl(-2).searchParams;
    expect(esearch.get('term')).toBe('AP5Z1[gene] AND "Hereditary spastic paraplegia 48"[dis]');
    expect(esearch.get('tool')).toBe('scigate');
    expect(source.requests.at(-1)).toContain('esummary.fcgi?db=clinvar&id=2%2C999999');
    expect(out.records).toHaveLength(1);
    expect(out.records[0]).toMatchObject({ id: 'clinvar:VCV000000002', kind: 'variant', title: NAME });
    expect(out.records[0].identifiers).toEqual({
      clinvar: 'VCV000000002',
      clinvarVariationId: '2',
      clinvarVersion: 'VCV000000002.3',
      dbsnp: 'rs397704705',
    });
    expect(out.records[0].fields).toMatchObject({
      germlineClassification: {
        description: 'Pathogenic',
        reviewStatus: 'criteria provided, single submitter',
        lastEvaluated: '2010-06-29',
        conditions: ['Hereditary spastic paraplegia 48'],
      },
      somaticClinicalImpact: null,
      oncogenicityClassification: null,
      genes: [{ symbol: 'AP5Z1', geneId: '9907' }],
    });
    expect(out.records[0].summary).toContain('Germline: Pathogenic (criteria provided, single submitter)');
    expect(out.warnings.join(' ')).toContain('999999');
  });

  it('an empty search returns records: [] without an ESummary call', async () => {
    const out = await source.expectRequests(1, async () => expectClinvarResult(await source.call('search', { gene: 'NOSUCHGENE1' })));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ count: 0, nextStart: null });
  });

  it('needs a query, gene, condition or variant, and a real gene symbol, before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('search', {}), 'invalid_input', false).message).toContain('query');
      expect(expectToolError(await source.call('search', { gene: 'BRCA1 OR x' }), 'invalid_input', false).message).toContain('gene');
    });
  });
});

describe('ClinVar get', () => {
  it('returns the VCV record with all classifications, HGVS, location and RCVs; the id matches search', async () => {
    const out = expectClinvarResult(await source.call('get', { ids: ['VCV000000002'] }));
    expect(source.requestParams()).toMatchObject({
      db: 'clinvar',
      rettype: 'vcv',
      is_variationid: 'true',
      id: '2',
    });
    const record = out.records[0];
    expect(record).toMatchObject({ id: 'clinvar:VCV000000002', title: NAME, published: '2017-01-30' });
    expect(record.citation).toMatchObject({ year: 2022, venue: 'ClinVar' });
    expect(record.citation.text).toContain('VCV000000002.3');
    expect(record.fields.hgvs).toEqual(
      expect.arrayContaining(['NM_014855.3:c.80_83delinsTGCTGTAAACTGTAACTGTAAA', 'NP_055670.1:p.Arg27_Ile28delinsLeuLeuTer']),
    );
    expect(record.fields).toMatchObject({
      proteinChange: 'p.Arg27_Ile28delinsLeuLeuTer',
      canonicalSpdi: 'NC_000007.14:4781212:GGAT:TGCTGTAAACTGTAACTGTAAA',
      rcvAccessions: ['RCV000000012'],
      conditions: ['Hereditary spastic paraplegia 48'],
      germlineClassification: { description: 'Pathogenic', reviewStatus: 'criteria provided, single submitter' },
      somaticClinicalImpact: null,
      oncogenicityClassification: null,
      submissionCount: 2,
    });
    expect(record.fields.locations[0]).toEqual({ assembly: 'GRCh38', chr: '7', start: '4781213', stop: '4781216', cytogenetic: '7p22.1' });
  });

  it('normalizes zero-padding: a Variation ID, a short VCV and a padded one are one request for id 2', async () => {
    const out = expectClinvarResult(await source.call('get', { ids: ['2', 'vcv2', 'VCV000000002.2'] }));
    expect(source.requestUrl().searchParams.get('id')).toBe('2');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['VCV000000002']);
    expect(out.warnings.join(' ')).toContain('VCV000000002.2 was asked for');
  });

  it('an unknown variation is records: [] with a warning', async () => {
    const out = expectClinvarResult(await source.call('get', { ids: ['999999999'] }));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('VCV999999999');
  });

  it('rejects RCV accessions and malformed ids, naming the field, before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('get', { ids: ['RCV000000010'] }), 'invalid_input', false).message).toMatch(/ids\[0\].*RCV/);
      for (const bad of ['VCV0000000021', 'abc', '0', 'VCV-2']) {
        expect(expectToolError(await source.call('get', { ids: ['2', bad] }), 'invalid_input', false).message).toContain('ids[1]');
      }
    });
  });
});

describe('ClinVar provider failures', () => {
  it('an <ERROR> inside an HTTP 200 EFetch body is a structured error', async () => {
    const error = expectToolError(await source.call('get', { ids: ['888'] }), 'invalid_input', false);
    expect(error.message).toContain('Neither query_key nor id specified');
  });

  it('HTTP 429 is rate_limited with Retry-After', async () => {
    const error = expectToolError(await source.call('search', { query: 'rate limited' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(1000);
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'service down' }), 'upstream_error', true);
  });

  it('a truncated VCV document is a retryable upstream_error', async () => {
    expect(expectToolError(await source.call('get', { ids: ['777'] }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
