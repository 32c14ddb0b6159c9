import { describe, expect, it } from 'vitest';
import { biorxivSource } from '../../sources/biorxiv/index.js';
import { medrxivSource } from '../../sources/medrxiv/index.js';
import { RXIV_FAILING_DOIS, RXIV_REJECTED_INTERVAL } from '../fixtures/providers/biorxivReplay.js';
import { medrxivReplay } from '../fixtures/providers/medrxivReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(medrxivSource, medrxivReplay);

/** medRxiv results: the shared checks, content pages as record URLs, and one PDF candidate per version record. */
function expectMedrxivResult(result: SourceToolResult) {
  const out = expectValidResult(result, medrxivSource, { recordUrl: (r) => `https://www.medrxiv.org/content/${r.sourceRecordId}` });
  for (const record of out.records) expect(record.citation).toMatchObject({ venue: 'medRxiv' });
  expect((out.artifacts ?? []).map((a: any) => a.url)).toEqual(out.records.map((r: any) => `${r.url}.full.pdf`));
  return out;
}

describeSourceContract(medrxivSource, { tools: ['get', 'list'] });

describe('medRxiv source: registration', () => {
  it('shares the api.biorxiv.org limiter group with bioRxiv', () => {
    expect(medrxivSource.manifest.limits.limitGroup).toBe(biorxivSource.manifest.limits.limitGroup);
  });
});

describe('medRxiv get and list', () => {
  it('returns all three versions of a preprint, newest first, from the medrxiv server', async () => {
    const out = expectMedrxivResult(await source.call('get', { doi: '10.1101/2021.12.11.21267504' }));
    expect(source.requests.at(-1)).toBe('/details/medrxiv/10.1101/2021.12.11.21267504/na/json');
    expect(out.records.map((r: any) => r.fields.version)).toEqual([3, 2, 1]);
    expect(out.records[0]).toMatchObject({ id: 'medrxiv:10.1101/2021.12.11.21267504v3', published: '2022-04-07' });
    expect(out.records[0].fields.type).toBe('PUBLISHAHEADOFPRINT');
    expect(out.artifacts[0]).toMatchObject({
      url: 'https://www.medrxiv.org/content/10.1101/2021.12.11.21267504v3.full.pdf',
      license: 'CC BY 4.0',
    });
  });

  it('a DOI naming a version marks that version among all three, and warns about one it lacks', async () => {
    const out = expectMedrxivResult(await source.call('get', { doi: 'doi:10.1101/2021.12.11.21267504v2' }));
    expect(out.records.map((r: any) => [r.fields.version, r.fields.requested])).toEqual([[3, undefined], [2, true], [1, undefined]]);
    expect(out.warnings).toEqual([]);
    const missing = expectMedrxivResult(await source.call('get', { doi: '10.1101/2021.12.11.21267504v4' }));
    expect(missing.records).toHaveLength(3);
    expect(missing.warnings).toEqual(['medRxiv has no v4 of 10.1101/2021.12.11.21267504; it has v3, v2, v1, all listed here, newest first']);
  });

  it('accepts the 10.64898 prefix; an unknown DOI is records: [] with a warning', async () => {
    const out = expectMedrxivResult(await source.call('get', { doi: '10.64898/2026.03.23.26348808' }));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('medRxiv has no preprint');
  });

  it('lists a date interval with the cursor to the next page', async () => {
    const out = expectMedrxivResult(await source.call('list', { from: '2020-01-01', to: '2022-12-31' }));
    expect(source.requests.at(-1)).toBe('/details/medrxiv/2020-01-01/2022-12-31/0/json');
    expect(out.records).toHaveLength(50);
    expect(out.records[0]).toMatchObject({ id: 'medrxiv:10.1101/2019.12.26.19014274v1', published: '2020-01-02' });
    expect(out.data).toEqual({ total: 47826, cursor: 0, returned: 50, nextCursor: 50 });
  });

  it('rejects malformed DOIs and dates before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('get', { doi: '10.1101/2021.12.11.2126750x' }), 'invalid_input', false).message).toContain('doi');
      expect(expectToolError(await source.call('list', { from: '2021-13-01', to: '2021-12-31' }), 'invalid_input', false).message).toContain('from');
    });
  });
});

describe('medRxiv provider failures', () => {
  it('a non-ok status inside HTTP 200, 429, 503 and a truncated body are structured errors', async () => {
    expect(expectToolError(await source.call('list', RXIV_REJECTED_INTERVAL), 'invalid_input', false).message).toContain('Server not recognized');
    expect(expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.rateLimited }), 'rate_limited', true).retryAfterMs).toBe(5000);
    expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.unavailable }), 'upstream_error', true);
    expect(expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.truncated }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
