import { describe, expect, it } from 'vitest';
import { biorxivSource } from '../../sources/biorxiv/index.js';
import { RXIV_FAILING_DOIS, RXIV_REJECTED_INTERVAL, biorxivReplay } from '../fixtures/providers/biorxivReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(biorxivSource, biorxivReplay);

/** bioRxiv results: the shared checks, content pages as record URLs, and one PDF candidate per version record. */
function expectBiorxivResult(result: SourceToolResult) {
  const out = expectValidResult(result, biorxivSource, { recordUrl: (r) => `https://www.biorxiv.org/content/${r.sourceRecordId}` });
  for (const record of out.records) expect(record.citation).toMatchObject({ venue: 'bioRxiv', doi: record.identifiers.doi });
  expect((out.artifacts ?? []).map((a: any) => a.url)).toEqual(out.records.map((r: any) => `${r.url}.full.pdf`));
  return out;
}

describeSourceContract(biorxivSource, { tools: ['get', 'list'] });

describe('bioRxiv get', () => {
  it('returns every version, newest first, each with its PDF and license', async () => {
    const out = expectBiorxivResult(await source.call('get', { doi: '10.1101/2021.09.30.462652' }));
    expect(source.requests.at(-1)).toBe('/details/biorxiv/10.1101/2021.09.30.462652/na/json');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['10.1101/2021.09.30.462652v2', '10.1101/2021.09.30.462652v1']);
    expect(out.records[0]).toMatchObject({ kind: 'preprint', published: '2022-09-05', identifiers: { doi: '10.1101/2021.09.30.462652' } });
    expect(out.records[0].fields).toMatchObject({ version: 2, license: 'cc_by' });
    expect(out.artifacts[0]).toMatchObject({ kind: 'pdf', mediaType: 'application/pdf', license: 'CC BY 4.0' });
    expect(out.artifacts[0].filename).not.toContain('/');
    expect(out.data).toEqual({ versions: 2, latestVersion: 2 });
  });

  it('accepts doi:, doi.org and versioned content URLs, and names a no-reuse license as such', async () => {
    for (const doi of ['doi:10.1101/2022.04.11.487927', 'https://doi.org/10.1101/2022.04.11.487927', 'https://www.biorxiv.org/content/10.1101/2022.04.11.487927v1.full.pdf']) {
      const out = expectBiorxivResult(await source.call('get', { doi }));
      expect(out.records.map((r: any) => r.id)).toEqual(['biorxiv:10.1101/2022.04.11.487927v1']);
      expect(out.artifacts[0].license).toMatch(/^No reuse license/);
    }
    expect(source.requests.at(-1)).toBe('/details/biorxiv/10.1101/2022.04.11.487927/na/json');
  });

  it('a DOI naming a version the preprint has lists every version, the named one marked, without a warning', async () => {
    const out = expectBiorxivResult(await source.call('get', { doi: '10.1101/2021.09.30.462652v1' }));
    expect(source.requests.at(-1)).toBe('/details/biorxiv/10.1101/2021.09.30.462652/na/json');
    expect(out.records.map((r: any) => [r.fields.version, r.fields.requested])).toEqual([[2, undefined], [1, true]]);
    expect(out.data).toEqual({ versions: 2, latestVersion: 2, requestedVersion: 1 });
    expect(out.warnings).toEqual([]);
  });

  it('a DOI naming a version the preprint does not have is warned about, naming the versions it has', async () => {
    for (const doi of ['10.1101/2020.06.11.145425v9', 'https://www.biorxiv.org/content/10.1101/2020.06.11.145425v2.full.pdf']) {
      const out = expectBiorxivResult(await source.call('get', { doi }));
      const asked = doi.includes('v9') ? 'v9' : 'v2';
      expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['10.1101/2020.06.11.145425v1']);
      expect(out.records[0].fields.requested).toBeUndefined();
      expect(out.warnings).toEqual([`bioRxiv has no ${asked} of 10.1101/2020.06.11.145425; it has v1, all listed here, newest first`]);
      expect(out.data).toMatchObject({ versions: 1, requestedVersion: Number(asked.slice(1)) });
    }
    const none = expectBiorxivResult(await source.call('get', { doi: '10.64898/2025.12.23.696273v2' }));
    expect(none.records).toEqual([]);
    expect(none.warnings).toEqual(['bioRxiv has no preprint with DOI 10.64898/2025.12.23.696273 (asked for v2)']);
  });

  it('an unknown DOI (the new 10.64898 prefix included) is records: [] with a warning', async () => {
    const out = expectBiorxivResult(await source.call('get', { doi: '10.64898/2025.12.23.696273' }));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('10.64898/2025.12.23.696273');
    expect(source.requests.at(-1)).toBe('/details/biorxiv/10.64898/2025.12.23.696273/na/json');
  });

  it('rejects DOIs of other publishers and malformed DOIs before any request', async () => {
    await source.expectNoRequests(async () => {
      for (const doi of ['10.1016/j.cell.2020.01.001', '10.1101/abc', '2021.09.30.462652', '10.1101/2021.09.30.46']) {
        expect(expectToolError(await source.call('get', { doi }), 'invalid_input', false).message).toContain('doi');
      }
    });
  });
});

describe('bioRxiv list', () => {
  it('lists a date interval with paging counters, stepping the cursor by what came back', async () => {
    const out = expectBiorxivResult(await source.call('list', { from: '2020-01-01', to: '2022-12-31' }));
    expect(source.requests.at(-1)).toBe('/details/biorxiv/2020-01-01/2022-12-31/0/json');
    expect(out.records).toHaveLength(50);
    expect(out.records[0]).toMatchObject({
      id: 'biorxiv:10.1101/001768v2',
      identifiers: { doi: '10.1101/001768', publishedDoi: '10.1016/j.isci.2022.105906' },
    });
    expect(out.records[0].citation.authors.slice(0, 2)).toEqual(['Durrieu, L.', 'Bush, A.']);
    expect(out.artifacts[0].license).toBe('CC BY-NC-ND 4.0');
    expect(out.data).toEqual({ total: 152918, cursor: 0, returned: 50, nextCursor: 50 });
    // Some captured items carry license "": no license is claimed for them.
    const unlicensed = out.records.findIndex((r: any) => r.fields.license === null);
    expect(out.artifacts[unlicensed].license).toMatch(/^No license stated/);
  });

  it('sends the category in API form and warns when the API ignored it', async () => {
    const out = expectBiorxivResult(await source.call('list', { from: '2020-01-01', to: '2022-12-31', category: 'Cell Biolgy' }));
    expect(source.requests.at(-1)).toBe('/details/biorxiv/2020-01-01/2022-12-31/0/json?category=cell_biolgy');
    expect(out.warnings.join(' ')).toContain('cell_biolgy');
  });

  it('an interval without posts is records: [] and no next cursor', async () => {
    const out = expectBiorxivResult(await source.call('list', { from: '2030-01-01', to: '2030-01-02' }));
    expect(out.records).toEqual([]);
    expect(out.data.nextCursor).toBeNull();
  });

  it('rejects impossible dates, a reversed interval and odd categories before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('list', { from: '2021-02-30', to: '2021-03-01' }), 'invalid_input', false).message).toContain('from');
      expect(expectToolError(await source.call('list', { from: '2021-03-01', to: '2021-02-01' }), 'invalid_input', false).message).toContain('to');
      expect(expectToolError(await source.call('list', { from: '2021-01-01', to: '2021/02/01' }), 'invalid_input', false).message).toContain('to');
      expect(
        expectToolError(await source.call('list', { from: '2021-01-01', to: '2021-02-01', category: '../x' }), 'invalid_input', false).message,
      ).toContain('category');
    });
  });
});

describe('bioRxiv provider failures', () => {
  it('a non-ok status inside an HTTP 200 body is a structured error', async () => {
    const error = expectToolError(await source.call('list', RXIV_REJECTED_INTERVAL), 'invalid_input', false);
    expect(error.message).toContain('Server not recognized');
  });

  it('HTTP 429 is rate_limited with Retry-After', async () => {
    expect(expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.rateLimited }), 'rate_limited', true).retryAfterMs).toBe(5000);
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.unavailable }), 'upstream_error', true);
  });

  it('a truncated JSON body is a retryable upstream_error', async () => {
    expect(expectToolError(await source.call('get', { doi: RXIV_FAILING_DOIS.truncated }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
