import { describe, expect, it } from 'vitest';
import { europepmcSource } from '../../sources/europepmc/index.js';
import { describeEuropepmcError } from '../../sources/europepmc/europepmcServer.js';
import { EUROPEPMC_PAGE2_CURSOR, europepmcReplay } from '../fixtures/providers/europepmcReplay.js';
import { fixtureBytes } from '../fixtures/providers/replayServer.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';
import { startTestGateway } from '../fixtures/testGateway.js';

const source = withReplayedSource(europepmcSource, europepmcReplay, (url) => ({ baseUrl: `${url}/europepmc/webservices/rest` }));

/** Europe PMC results: the shared checks, article pages as record URLs, and titles with their inline markup stripped. */
function expectEuropepmcResult(result: SourceToolResult) {
  const out = expectValidResult(result, europepmcSource, {
    recordUrl: (r) => `https://europepmc.org/article/${r.sourceRecordId.replace(':', '/')}`,
  });
  for (const record of out.records) expect(record.title).not.toMatch(/<|&lt;/);
  return out;
}

describeSourceContract(europepmcSource, { tools: ['get', 'search'] });

describe('Europe PMC search', () => {
  it('returns a lite page with the cursor to the next one', async () => {
    const out = expectEuropepmcResult(await source.call('search', { query: 'cancer' }));
    expect(source.requestParams()).toMatchObject({ query: 'cancer', format: 'json', resultType: 'lite', pageSize: '25', cursorMark: '*' });
    expect(out.records).toHaveLength(25);
    expect(out.records[0]).toMatchObject({
      id: 'europepmc:MED:39709209',
      kind: 'article',
      url: 'https://europepmc.org/article/MED/39709209',
      identifiers: { europepmc: 'MED:39709209', pmid: '39709209', doi: '10.1016/s0140-6736(24)02600-x' },
      published: '2025-12-01',
    });
    expect(out.records[0].citation).toMatchObject({ authors: ['Schoenfeld JD', 'Haas-Kogan DA', "O'Neill AF"], year: 2025, venue: 'Lancet' });
    expect(out.artifacts).toBeUndefined();
    expect(out.data).toMatchObject({ hitCount: 5059039, nextCursorMark: EUROPEPMC_PAGE2_CURSOR });
  });

  it('core results offer only the open-access PDFs Europe PMC serves, with their license', async () => {
    const out = expectEuropepmcResult(await source.call('search', { query: 'cancer', resultType: 'core' }));
    expect(out.artifacts).toHaveLength(8);
    const pdf = out.artifacts.find((a: any) => a.sourceRecordId === 'MED:40356016');
    expect(pdf).toMatchObject({
      url: 'https://europepmc.org/articles/PMC12069736?pdf=render',
      kind: 'pdf',
      mediaType: 'application/pdf',
      filename: 'PMC12069736.pdf',
    });
    expect(pdf.license).toContain('CC BY-NC-ND');
    // Free-to-read (availability F) is not open access: listed in fields, not offered as a candidate.
    const free = out.records.find((r: any) => r.sourceRecordId === 'MED:39709208');
    expect(free.fields.fullTextLinks).toContainEqual({ url: 'https://europepmc.org/articles/PMC12124214?pdf=render', style: 'pdf', availability: 'F' });
    expect(out.artifacts.some((a: any) => a.sourceRecordId === 'MED:39709208')).toBe(false);
    const record = out.records.find((r: any) => r.sourceRecordId === 'MED:40356016');
    expect(record.summary).toMatch(/^Issue addressed Generally, bowel cancer/);
    expect(record.fields.mesh).toContain('Colorectal Neoplasms');
  });

  it('strips inline markup from titles, also when Europe PMC sends it entity-encoded', async () => {
    const out = expectEuropepmcResult(await source.call('search', { query: 'ATM c.7390T>C AND NOT PUB_TYPE:"retracted publication"' }));
    expect(out.records[0].title).toBe('Rare Germline Variants in DNA Repair Genes Detected in BRCA-Negative Finnish Patients with Early-Onset Breast Cancer.');
    expect(out.records[3].title).toBe(
      'Rare, protein-truncating variants in ATM, CHEK2 and PALB2, but not XRCC2, are associated with increased breast cancer risks.',
    );
  });

  it('an empty search is records: [] and no next cursor', async () => {
    const out = expectEuropepmcResult(await source.call('search', { query: 'asdkfjhasdkfjhasdfasdasdasdfgsagsd' }));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ hitCount: 0, nextCursorMark: null });
  });

  it('a body with only {"version"} is invalid_input for a stale cursor and retryable on the first page', async () => {
    const stale = expectToolError(await source.call('search', { query: 'cancer', cursorMark: EUROPEPMC_PAGE2_CURSOR }), 'invalid_input', false);
    expect(stale.message).toContain('cursorMark');
    expectToolError(await source.call('search', { query: 'flaky' }), 'upstream_error', true);
  });

  it('rejects a malformed cursor or sort, and page sizes out of bounds, before any request', async () => {
    await source.expectNoRequests(async () => {
      expect(expectToolError(await source.call('search', { query: 'cancer', cursorMark: 'a b' }), 'invalid_input', false).message).toContain('cursorMark');
      expect(expectToolError(await source.call('search', { query: 'cancer', sort: 'cited; drop' }), 'invalid_input', false).message).toContain('sort');
      for (const pageSize of [0, 101]) expect((await source.call('search', { query: 'cancer', pageSize })).isError).toBe(true);
    });
  });
});

describe('Europe PMC get', () => {
  it('finds a record by PMID or MED:id with one core query', async () => {
    const out = expectEuropepmcResult(await source.call('get', { ids: ['20516115', 'MED:20516115'] }));
    expect(source.requestParams()).toMatchObject({ query: 'EXT_ID:20516115 AND SRC:MED', resultType: 'core', cursorMark: '*' });
    expect(out.records).toHaveLength(1);
    expect(out.records[0]).toMatchObject({
      id: 'europepmc:MED:20516115',
      identifiers: { pmid: '20516115', pmcid: 'PMC3040717', doi: '10.1158/0008-5472.can-09-4563' },
    });
    expect(out.records[0].citation.authors).toHaveLength(11);
    expect(out.warnings).toEqual([]);
  });

  it('ORs several ids into one query and warns about the ones not found', async () => {
    const out = expectEuropepmcResult(await source.call('get', { ids: ['20516115', 'pmc9999999'] }));
    expect(source.requestParams().query).toBe('(EXT_ID:20516115 AND SRC:MED) OR (PMCID:PMC9999999)');
    expect(out.records).toHaveLength(1);
    expect(out.warnings.join(' ')).toContain('pmc9999999');
  });

  it('keeps every word of an abstract with a literal "<" before inline markup', async () => {
    const out = expectEuropepmcResult(await source.call('get', { ids: ['40420324'] }));
    expect(out.records[0].summary).toContain(
      'in both groups. (p <.01). However, the normalized prostatic artery diameter was significantly larger for the prostate cancer group (p <.05). Computed tomography revealed',
    );
  });

  it('rejects malformed ids, naming the field, before any request', async () => {
    await source.expectNoRequests(async () => {
      for (const bad of ['XYZ:1', 'MED:abc', '10.1/x', 'PMC', 'not an id']) {
        expect(expectToolError(await source.call('get', { ids: ['20516115', bad] }), 'invalid_input', false).message).toContain('ids[1]');
      }
    });
  });
});

describe('Europe PMC provider failures', () => {
  it('HTTP 429 is rate_limited with a fractional Retry-After', async () => {
    expect(expectToolError(await source.call('search', { query: 'rate limited' }), 'rate_limited', true).retryAfterMs).toBe(1500);
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'service down' }), 'upstream_error', true);
  });

  it('a truncated JSON body is a retryable upstream_error', async () => {
    expect(expectToolError(await source.call('search', { query: 'cut short' }), 'upstream_error', true).message).toMatch(/truncated/);
  });

  it('reads the reason out of the captured errorBean', () => {
    const bean = fixtureBytes('europepmc', 'error-supplementaryfiles-not-open-access.xml').toString('utf8');
    expect(describeEuropepmcError(bean)).toBe('Article with id PMC3040717 is not open access one');
  });
});

describe('Europe PMC through the whole gateway', () => {
  it('a search over streamable HTTP returns the same records and candidates as the source server itself', async () => {
    const gateway = await startTestGateway({ SCIGATE_EUROPEPMC_BASE_URL: `${source.providerUrl}/europepmc/webservices/rest` });
    try {
      const client = await gateway.connect();
      const viaGateway = (await client.callTool({ name: 'mcp__europepmc__search', arguments: { query: 'cancer', resultType: 'core' } })) as any;
      expect(viaGateway.isError).toBeFalsy();
      expect(viaGateway.structuredContent.invocationId).toMatch(/^inv_/);
      const direct = expectEuropepmcResult(await source.call('search', { query: 'cancer', resultType: 'core' }));
      expect(viaGateway.structuredContent.records).toEqual(direct.records);
      expect(viaGateway.structuredContent.artifacts).toEqual(direct.artifacts);
      expect(viaGateway.structuredContent.data).toEqual(direct.data);
      expect(viaGateway.structuredContent).toMatchObject({ sourceId: 'europepmc', toolId: 'search', untrusted: true });
    } finally {
      await gateway.dispose();
    }
  });
});
