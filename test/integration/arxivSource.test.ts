import { describe, expect, it } from 'vitest';
import { arxivSource } from '../../sources/arxiv/index.js';
import { arxivReplay } from '../fixtures/providers/arxivReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(arxivSource, arxivReplay, (url) => ({ baseUrl: `${url}/api` }));
/** arXiv results: the shared checks, and every record's landing page is its versioned abs page. */
const expectArxivResult = (result: SourceToolResult) =>
  expectValidResult(result, arxivSource, { recordUrl: (r) => `https://arxiv.org/abs/${r.sourceRecordId}` });

describeSourceContract(arxivSource, { tools: ['get', 'search'] });

describe('arXiv source against captured responses', () => {
  it('search returns normalized records with citations and a PDF candidate per record', async () => {
    const out = expectArxivResult(await source.call('search', { query: 'testing' }));
    expect(out.sourceId).toBe('arxiv');
    expect(out.toolId).toBe('search');
    expect(out.untrusted).toBe(true);
    expect(out.records).toHaveLength(10);
    const first = out.records[0];
    expect(first).toMatchObject({
      id: 'arxiv:2202.12139v1',
      sourceRecordId: '2202.12139v1',
      kind: 'preprint',
      url: 'https://arxiv.org/abs/2202.12139v1',
      title: 'Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques',
      identifiers: { arxiv: '2202.12139', doi: '10.1109/ICSTW55395.2022.00035' },
      published: '2022-02-24',
    });
    expect(first.citation.authors).toEqual(['Mohit Kumar Ahuja', 'Arnaud Gotlieb', 'Helge Spieker']);
    expect(first.citation.year).toBe(2022);
    expect(out.artifacts[0]).toMatchObject({ url: 'https://arxiv.org/pdf/2202.12139v1', kind: 'pdf', sourceRecordId: '2202.12139v1' });
    expect(out.data).toMatchObject({ totalResults: 214881, startIndex: 0, nextStart: 10 });
    expect(source.requests.at(-1)).toContain('search_query=testing');
  });

  it('follows the page offset', async () => {
    const out = expectArxivResult(await source.call('search', { query: 'testing', start: 10 }));
    expect(out.data.startIndex).toBe(10);
    expect(out.records[0].id).not.toBe('arxiv:2202.12139v1');
  });

  it('gets versioned, unversioned and old-style ids', async () => {
    const versioned = expectArxivResult(await source.call('get', { ids: ['2104.12255v1'] }));
    expect(versioned.records[0].sourceRecordId).toBe('2104.12255v1');
    const plain = expectArxivResult(await source.call('get', { ids: ['arXiv:1605.08386'] }));
    expect(plain.records[0].identifiers.arxiv).toBe('1605.08386');
    const old = expectArxivResult(await source.call('get', { ids: ['astro-ph/0601001'] }));
    const record = old.records[0];
    expect(record.identifiers.arxiv).toBe('astro-ph/0601001');
    expect(record.url).toMatch(/^https:\/\/arxiv\.org\/abs\/astro-ph\/0601001v\d+$/);
    expect(old.artifacts[0].url).toBe(`https://arxiv.org/pdf/${record.sourceRecordId}`);
    expect(old.artifacts[0].filename).not.toContain('/');
    expect(source.requests.at(-1)).toContain('id_list=astro-ph%2F0601001');
  });

  it('normalizes hard-wrapped titles of the legacy format', async () => {
    const record = expectArxivResult(await source.call('get', { ids: ['1111.2011v2'] })).records[0];
    expect(record.title).toBe('Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit');
    expect(record.summary).not.toMatch(/\n|\s{2,}/);
    expect(record.identifiers.doi).toBeDefined();
  });

  it('an empty feed is records: [] without an error, and missing ids are warned about', async () => {
    expect(expectArxivResult(await source.call('get', { ids: ['0000.0000'] })).records).toEqual([]);
    const partial = expectArxivResult(await source.call('get', { ids: ['0808.05394', '1707.08567'] }));
    expect(partial.records).toHaveLength(1);
    expect(partial.warnings.join(' ')).toContain('0808.05394');
  });

  it('a provider 400 becomes invalid_input with the provider reason', async () => {
    const error = expectToolError(await source.call('get', { ids: ['9999.99999'] }), 'invalid_input', false);
    expect(error.message).toContain('incorrect id format for abc');
  });

  it('an Atom feed without opensearch:totalResults is refused, not passed off as no results', async () => {
    const error = expectToolError(await source.call('search', { query: 'feed without counts' }), 'upstream_error', true);
    expect(error.message).toContain('no opensearch:totalResults');
    const none = expectArxivResult(await source.call('search', { query: 'nothing matches this' }));
    expect(none.records).toEqual([]);
    expect(none.data).toMatchObject({ totalResults: 0 });
    expect(none.partial).toBeUndefined();
  });

  it('an empty page where totalResults says there are more is marked partial (the broker does not cache it), with a warning', async () => {
    const out = expectArxivResult(await source.call('search', { query: 'empty page' }));
    expect(out.records).toEqual([]);
    expect(out.partial).toBe(true);
    expect(out.warnings.length).toBeGreaterThan(0);
  });

  it('XML the parser refuses (an external entity, 200,000 nested tags) is a classified provider error, the entity never read', async () => {
    for (const query of ['external entity', 'deep nesting']) {
      const error = expectToolError(await source.call('search', { query }), 'upstream_error', true);
      expect(error.message).toMatch(/^arXiv sent malformed, truncated or unsupported XML \(/);
      expect(error.message).not.toMatch(/unexpectedly|Error:|root:/);
    }
  });

  it('a malformed id is rejected before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('get', { ids: ['not an id'] }), 'invalid_input').message).toContain('not an id');
    });
  });
});
