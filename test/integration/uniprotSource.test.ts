import { describe, expect, it } from 'vitest';
import { uniprotSource } from '../../sources/uniprot/index.js';
import { UNIPROT_PAGED_QUERY, UNIPROT_PAGE2_CURSOR, uniprotReplay } from '../fixtures/providers/uniprotReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';
import { startTestGateway } from '../fixtures/testGateway.js';

const source = withReplayedSource(uniprotSource, uniprotReplay);

/** UniProt results: the shared checks, and every record's landing page is its UniProtKB entry page. */
const expectUniprotResult = (result: SourceToolResult) =>
  expectValidResult(result, uniprotSource, { recordUrl: (r) => `https://www.uniprot.org/uniprotkb/${r.sourceRecordId}/entry` });

describeSourceContract(uniprotSource, { tools: ['get', 'search'] });

describe('UniProt source: registration', () => {
  it('is published under CC BY 4.0', () => {
    expect(uniprotSource.manifest.license).toContain('CC BY 4.0');
  });
});

describe('UniProt source against captured responses', () => {
  it('get returns the entry with names, gene, organism, length, function, reviewed flag and cross-references', async () => {
    const out = expectUniprotResult(await source.call('get', { accession: 'a4q9f3' }));
    expect(source.requests.at(-1)).toBe('/uniprotkb/A4Q9F3.json');
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'uniprot:A4Q9F3',
      sourceRecordId: 'A4Q9F3',
      kind: 'protein',
      title: 'Protein polyglycylase TTLL10',
      url: 'https://www.uniprot.org/uniprotkb/A4Q9F3/entry',
      identifiers: { uniprot: 'A4Q9F3', uniprotEntryName: 'TTL10_MOUSE' },
      published: '2008-03-18',
    });
    expect(record.citation).toMatchObject({ url: record.url, authors: ['The UniProt Consortium'], year: 2024 });
    expect(record.citation.text).toContain('A4Q9F3');
    expect(record.summary).toMatch(/^Polyglycylase which modifies both tubulin/);
    expect(record.fields).toMatchObject({
      reviewed: true,
      genes: [{ name: 'Ttll10', synonyms: [] }],
      organism: { scientificName: 'Mus musculus', taxonId: 10090 },
      length: 704,
      sequenceMd5: '791451B1803F0D66B8D800BF307E85F3',
      crossReferenceCount: 47,
    });
    expect(record.fields.crossReferences.MGI).toEqual(['MGI:1921855']);
    expect(out.artifacts).toEqual([
      expect.objectContaining({ url: 'https://rest.uniprot.org/uniprotkb/A4Q9F3.fasta', kind: 'fasta', sourceRecordId: 'A4Q9F3', filename: 'uniprot-A4Q9F3.fasta' }),
    ]);
    expect(out.artifacts[0].id).toMatch(/^cand_[0-9a-f]{24}$/);
    expect(out.license).toBe(uniprotSource.manifest.license);
    expect(out.attribution).toContain('UniProt Consortium');
  });

  it('accepts an isoform accession and offers the isoform FASTA', async () => {
    const out = expectUniprotResult(await source.call('get', { accession: 'A4Q9F3-2' }));
    expect(source.requests.at(-1)).toBe('/uniprotkb/A4Q9F3-2.json');
    expect(out.artifacts[0].url).toBe('https://rest.uniprot.org/uniprotkb/A4Q9F3-2.fasta');
    expect(out.warnings.join(' ')).toContain('A4Q9F3-2');
  });

  it('warns when a secondary accession resolves to the current entry', async () => {
    const out = expectUniprotResult(await source.call('get', { accession: 'Q3V0K4' }));
    expect(out.records[0].id).toBe('uniprot:A4Q9F3');
    expect(out.artifacts[0].url).toBe('https://rest.uniprot.org/uniprotkb/A4Q9F3.fasta');
    expect(out.warnings.join(' ')).toContain('Q3V0K4');
  });

  it('an unknown accession is not_found and an inactive (merged) entry names its successor (constructed fixtures)', async () => {
    expectToolError(await source.call('get', { accession: 'P99999' }), 'not_found', false);
    const merged = expectToolError(await source.call('get', { accession: 'Q00001' }), 'not_found');
    expect(merged.message).toContain('MERGED');
    expect(merged.message).toContain('P12345');
  });

  it('rejects a malformed accession before any request, naming the field', async () => {
    await source.expectNoRequests(async () => {
      for (const accession of ['BRAF_HUMAN', 'P1234', 'A4Q9F3-x', '../etc']) {
        const error = expectToolError(await source.call('get', { accession }), 'invalid_input');
        expect(error.message).toContain('accession');
      }
      expect(expectToolError(await source.call('search', { query: 'insulin', cursor: 'a b' }), 'invalid_input').message).toContain('cursor');
    });
  });
});

describe('UniProt search and paging', () => {
  it('passes the query through and follows the Link header cursor to the last page', async () => {
    const first = expectUniprotResult(await source.call('search', { query: UNIPROT_PAGED_QUERY, size: 2 }));
    const sent = source.requestUrl();
    expect(sent.searchParams.get('query')).toBe(UNIPROT_PAGED_QUERY);
    expect(sent.searchParams.get('size')).toBe('2');
    expect(first.records.map((r: any) => r.id)).toEqual(['uniprot:F1MAB7', 'uniprot:O14975']);
    expect(first.records[1].fields.genes[0]).toEqual({ name: 'SLC27A2', synonyms: ['ACSVL1', 'FACVL1', 'FATP2', 'VLACS'] });
    expect(first.artifacts.map((a: any) => a.sourceRecordId)).toEqual(['F1MAB7', 'O14975']);
    expect(first.data).toEqual({ totalResults: 3, nextCursor: UNIPROT_PAGE2_CURSOR });

    const second = expectUniprotResult(await source.call('search', { query: UNIPROT_PAGED_QUERY, size: 2, cursor: first.data.nextCursor }));
    expect(source.requestUrl().searchParams.get('cursor')).toBe(UNIPROT_PAGE2_CURSOR);
    expect(second.records.map((r: any) => r.id)).toEqual(['uniprot:A4Q9F3']);
    expect(second.data).toEqual({ totalResults: 3, nextCursor: null });
  });

  it('an empty search is records: [] without an error (constructed fixture)', async () => {
    const out = expectUniprotResult(await source.call('search', { query: 'gene:nosuchgene123' }));
    expect(out.records).toEqual([]);
    expect(out.data).toEqual({ totalResults: 0, nextCursor: null });
  });

  it('bounds the page size before any request', async () => {
    await source.expectNoRequests(async () => {
      expect((await source.call('search', { query: 'insulin', size: 501 })).isError).toBe(true);
      expect((await source.call('search', { query: 'insulin', size: 0 })).isError).toBe(true);
    });
  });
});

describe('UniProt provider failures', () => {
  it('a 400 is invalid_input with the provider message', async () => {
    const error = expectToolError(await source.call('search', { query: 'gene:[a TO b]' }), 'invalid_input', false);
    expect(error.message).toContain('invalid syntax');
  });

  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const error = expectToolError(await source.call('search', { query: 'slow down' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(7000);
  });

  it('a 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('search', { query: 'maintenance' }), 'upstream_error', true);
  });

  it('a connection cut mid-body and a cut JSON body are both retryable upstream_errors', async () => {
    expectToolError(await source.call('search', { query: 'cut connection' }), 'upstream_error', true);
    const malformed = expectToolError(await source.call('search', { query: 'cut json' }), 'upstream_error', true);
    expect(malformed.message).toContain('malformed or truncated JSON');
    expect(JSON.stringify(malformed)).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe('UniProt through the whole gateway', () => {
  it('a get over streamable HTTP returns the same record and candidate as the source server called directly', async () => {
    const gateway = await startTestGateway({ SCIGATE_UNIPROT_BASE_URL: source.providerUrl });
    try {
      const client = await gateway.connect();
      const viaGateway = (await client.callTool({ name: 'mcp__uniprot__get', arguments: { accession: 'A4Q9F3' } })) as any;
      const direct = expectUniprotResult(await source.call('get', { accession: 'A4Q9F3' }));
      expect(viaGateway.isError, JSON.stringify(viaGateway.structuredContent)).toBeFalsy();
      expect(viaGateway.structuredContent.invocationId).toMatch(/^inv_/);
      expect(viaGateway.structuredContent.records).toEqual(direct.records);
      expect(viaGateway.structuredContent.artifacts).toEqual(direct.artifacts);
      expect(viaGateway.structuredContent).toMatchObject({ sourceId: 'uniprot', toolId: 'get', license: direct.license });
    } finally {
      await gateway.dispose();
    }
  });
});
