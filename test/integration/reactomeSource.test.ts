import { describe, expect, it } from 'vitest';
import { reactomeSource } from '../../sources/reactome/index.js';
import { reactomeReplay } from '../fixtures/providers/reactomeReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(reactomeSource, reactomeReplay, (url) => ({ baseUrl: `${url}/ContentService` }));

/** Reactome results: the shared checks, and every record's landing page is its detail page. */
const expectReactomeResult = (result: SourceToolResult) =>
  expectValidResult(result, reactomeSource, { recordUrl: (r) => `https://reactome.org/content/detail/${r.sourceRecordId}` });

describeSourceContract(reactomeSource, { tools: ['get', 'search'] });

describe('Reactome source: registration', () => {
  it('is published under CC BY 4.0', () => {
    expect(reactomeSource.manifest.license).toContain('CC BY 4.0');
  });
});

describe('Reactome search', () => {
  it('returns records with the Solr highlighting stripped from names (real, minimized capture)', async () => {
    const out = expectReactomeResult(await source.call('search', { query: 'MAPK signaling pathway' }));
    expect(source.requestUrl().pathname).toBe('/ContentService/search/query');
    expect(source.requestParams()).toMatchObject({ query: 'MAPK signaling pathway', species: 'Homo sapiens', types: 'Pathway,Reaction', cluster: 'true' });
    expect(out.records).toHaveLength(10);
    expect(out.records[0]).toMatchObject({
      id: 'reactome:R-HSA-9652817',
      title: 'Signaling by MAPK mutants',
      url: 'https://reactome.org/content/detail/R-HSA-9652817',
      identifiers: { reactome: 'R-HSA-9652817' },
    });
    for (const record of out.records) expect(record.title).not.toMatch(/[<>]/);
    expect(out.records[1].citation).toMatchObject({ url: 'https://reactome.org/content/detail/R-HSA-6802957' });
    expect(out.data).toMatchObject({ start: 0, nextStart: null });
  });

  it('HTTP 404 (no entries found) is an empty result, not an error (constructed fixture)', async () => {
    const out = expectReactomeResult(await source.call('search', { query: 'nothingatall' }));
    expect(out.records).toEqual([]);
    expect(out.data).toEqual({ totalResults: 0, start: 0, nextStart: null });
  });
});

describe('Reactome get', () => {
  it('reads the minimized real capture: name, species and summation as plain text', async () => {
    const out = expectReactomeResult(await source.call('get', { id: 'R-HSA-5673001' }));
    expect(source.requests.slice(-2)).toEqual(['/ContentService/data/query/R-HSA-5673001', '/ContentService/data/participants/R-HSA-5673001']);
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'reactome:R-HSA-5673001',
      title: 'RAF/MAP kinase cascade',
      url: 'https://reactome.org/content/detail/R-HSA-5673001',
      fields: { species: 'Homo sapiens', participantsCount: null },
    });
    expect(record.summary).toMatch(/^The RAS-RAF-MEK-ERK pathway regulates/);
    expect(record.summary).not.toContain('<br>');
  });

  it('a full pathway gives literature, participants count, version and SBML/SBGN exports (constructed fixture)', async () => {
    const out = expectReactomeResult(await source.call('get', { id: 'r-hsa-5683057.3' }));
    expect(source.requests.at(-2)).toBe('/ContentService/data/query/R-HSA-5683057');
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'reactome:R-HSA-5683057',
      kind: 'pathway',
      title: 'MAPK family signaling cascades',
      identifiers: { reactome: 'R-HSA-5683057', reactomeVersion: 'R-HSA-5683057.3', doi: '10.3180/R-HSA-5683057.1' },
      published: '2016-03-23',
      summary: 'Constructed summation for tests: the MAPK family cascades. Second sentence.',
    });
    expect(record.citation).toMatchObject({ doi: '10.3180/R-HSA-5683057.1', year: 2016, url: record.url });
    expect(record.fields).toMatchObject({ participantsCount: 3, subEventCount: 1, schemaClass: 'Pathway' });
    expect(record.fields.literatureReferences[0]).toMatchObject({ pmid: '10000001', year: 2015, authors: ['Tester, A'] });
    expect(out.artifacts.map((a: any) => [a.kind, a.url])).toEqual([
      ['sbml', 'https://reactome.org/ContentService/exporter/event/R-HSA-5683057.sbml'],
      ['sbgn', 'https://reactome.org/ContentService/exporter/event/R-HSA-5683057.sbgn'],
    ]);
    expect(out.warnings).toEqual([]);
  });

  it('warns when the version asked for is not the one served', async () => {
    const out = expectReactomeResult(await source.call('get', { id: 'R-HSA-5683057.1' }));
    expect(out.warnings.join(' ')).toContain('R-HSA-5683057.3');
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    expectToolError(await source.call('get', { id: 'R-HSA-999999999' }), 'not_found', false);
    await source.expectNoRequests(async () => {
      for (const id of ['5673001', 'R-HS-5673001', 'R-HSA-', 'R-HSA-56/73001']) {
        const error = expectToolError(await source.call('get', { id }), 'invalid_input');
        expect(error.message.startsWith('id:')).toBe(true);
      }
    });
  });
});

describe('Reactome provider failures', () => {
  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const error = expectToolError(await source.call('search', { query: 'slow down' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(5000);
  });

  it('a 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'maintenance' }), 'upstream_error', true);
  });

  it('a connection cut mid-body and a cut JSON body are both retryable upstream_errors', async () => {
    expectToolError(await source.call('search', { query: 'cut connection' }), 'upstream_error', true);
    expectToolError(await source.call('search', { query: 'cut json' }), 'upstream_error', true);
  });
});
