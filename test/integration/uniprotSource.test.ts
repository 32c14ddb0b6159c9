import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import {
  MAX_TOOL_NAME_CHARS,
  findBuiltinSource,
  governedToolName,
  isHostAllowed,
  mcpToolResultJsonSchema,
  parseSourceManifest,
} from '../../catalog/index.js';
import { uniprotSource } from '../../catalog/sources/uniprot/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { UNIPROT_PAGED_QUERY, UNIPROT_PAGE2_CURSOR, uniprotReplay } from '../fixtures/providers/uniprotReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';
import { startTestGateway } from '../fixtures/testGateway.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(uniprotReplay);
  source = await connectSource(uniprotSource, { baseUrl: provider.baseUrl });
});
afterAll(async () => {
  await source.close();
  await provider.close();
});

/** A successful result: valid against the published schema, every candidate on an allowed https host. */
function expectValidResult(result: { isError?: boolean; structuredContent?: any }) {
  expect(result.isError).toBeFalsy();
  expect(validateResult(result.structuredContent), JSON.stringify(validateResult.errors)).toBe(true);
  for (const candidate of result.structuredContent.artifacts ?? []) {
    const url = new URL(candidate.url);
    expect(url.protocol).toBe('https:');
    expect(isHostAllowed(url.hostname, uniprotSource.manifest.allowedDomains)).toBe(true);
  }
  return result.structuredContent;
}

describe('UniProt source: registration', () => {
  it('is registered with a valid manifest, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('uniprot')).toBe(uniprotSource);
    expect(parseSourceManifest(uniprotSource.manifest)).toEqual(uniprotSource.manifest);
    expect(uniprotSource.manifest.license).toContain('CC BY 4.0');
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(uniprotSource.manifest.tools.map((t) => t.id).sort());
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('uniprot', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('UniProt source against captured responses', () => {
  it('get returns the entry with names, gene, organism, length, function, reviewed flag and cross-references', async () => {
    const out = expectValidResult(await source.call('get', { accession: 'a4q9f3' }));
    expect(provider.requests.at(-1)).toBe('/uniprotkb/A4Q9F3.json');
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
    const out = expectValidResult(await source.call('get', { accession: 'A4Q9F3-2' }));
    expect(provider.requests.at(-1)).toBe('/uniprotkb/A4Q9F3-2.json');
    expect(out.artifacts[0].url).toBe('https://rest.uniprot.org/uniprotkb/A4Q9F3-2.fasta');
    expect(out.warnings.join(' ')).toContain('A4Q9F3-2');
  });

  it('warns when a secondary accession resolves to the current entry', async () => {
    const out = expectValidResult(await source.call('get', { accession: 'Q3V0K4' }));
    expect(out.records[0].id).toBe('uniprot:A4Q9F3');
    expect(out.artifacts[0].url).toBe('https://rest.uniprot.org/uniprotkb/A4Q9F3.fasta');
    expect(out.warnings.join(' ')).toContain('Q3V0K4');
  });

  it('an unknown accession is not_found and an inactive (merged) entry names its successor (constructed fixtures)', async () => {
    const unknown = await source.call('get', { accession: 'P99999' });
    expect(unknown.structuredContent.error).toMatchObject({ code: 'not_found', retryable: false });
    const merged = await source.call('get', { accession: 'Q00001' });
    expect(merged.structuredContent.error.code).toBe('not_found');
    expect(merged.structuredContent.error.message).toContain('MERGED');
    expect(merged.structuredContent.error.message).toContain('P12345');
  });

  it('rejects a malformed accession before any request, naming the field', async () => {
    const before = provider.requests.length;
    for (const accession of ['BRAF_HUMAN', 'P1234', 'A4Q9F3-x', '../etc']) {
      const result = await source.call('get', { accession });
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message).toContain('accession');
    }
    const badCursor = await source.call('search', { query: 'insulin', cursor: 'a b' });
    expect(badCursor.structuredContent.error.message).toContain('cursor');
    expect(provider.requests.length).toBe(before);
  });
});

describe('UniProt search and paging', () => {
  it('passes the query through and follows the Link header cursor to the last page', async () => {
    const first = expectValidResult(await source.call('search', { query: UNIPROT_PAGED_QUERY, size: 2 }));
    const sent = new URL(provider.requests.at(-1)!, 'http://x');
    expect(sent.searchParams.get('query')).toBe(UNIPROT_PAGED_QUERY);
    expect(sent.searchParams.get('size')).toBe('2');
    expect(first.records.map((r: any) => r.id)).toEqual(['uniprot:F1MAB7', 'uniprot:O14975']);
    expect(first.records[1].fields.genes[0]).toEqual({ name: 'SLC27A2', synonyms: ['ACSVL1', 'FACVL1', 'FATP2', 'VLACS'] });
    expect(first.artifacts.map((a: any) => a.sourceRecordId)).toEqual(['F1MAB7', 'O14975']);
    expect(first.data).toEqual({ totalResults: 3, nextCursor: UNIPROT_PAGE2_CURSOR });

    const second = expectValidResult(await source.call('search', { query: UNIPROT_PAGED_QUERY, size: 2, cursor: first.data.nextCursor }));
    expect(new URL(provider.requests.at(-1)!, 'http://x').searchParams.get('cursor')).toBe(UNIPROT_PAGE2_CURSOR);
    expect(second.records.map((r: any) => r.id)).toEqual(['uniprot:A4Q9F3']);
    expect(second.data).toEqual({ totalResults: 3, nextCursor: null });
  });

  it('an empty search is records: [] without an error (constructed fixture)', async () => {
    const out = expectValidResult(await source.call('search', { query: 'gene:nosuchgene123' }));
    expect(out.records).toEqual([]);
    expect(out.data).toEqual({ totalResults: 0, nextCursor: null });
  });

  it('bounds the page size before any request', async () => {
    const before = provider.requests.length;
    expect((await source.call('search', { query: 'insulin', size: 501 })).isError).toBe(true);
    expect((await source.call('search', { query: 'insulin', size: 0 })).isError).toBe(true);
    expect(provider.requests.length).toBe(before);
  });
});

describe('UniProt provider failures', () => {
  it('a 400 is invalid_input with the provider message', async () => {
    const result = await source.call('search', { query: 'gene:[a TO b]' });
    expect(result.structuredContent.error).toMatchObject({ code: 'invalid_input', retryable: false });
    expect(result.structuredContent.error.message).toContain('invalid syntax');
  });

  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const result = await source.call('search', { query: 'slow down' });
    expect(result.structuredContent.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 7000 });
  });

  it('a 503 is a retryable upstream_error', async () => {
    const result = await source.call('search', { query: 'maintenance' });
    expect(result.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it('a connection cut mid-body is retryable upstream_unavailable; a cut JSON body is retryable upstream_error', async () => {
    const cut = await source.call('search', { query: 'cut connection' });
    expect(cut.structuredContent.error).toMatchObject({ code: 'upstream_unavailable', retryable: true });
    const malformed = await source.call('search', { query: 'cut json' });
    expect(malformed.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(malformed.structuredContent.error.message).toContain('malformed or truncated JSON');
    expect(JSON.stringify(malformed.structuredContent.error)).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe('UniProt through the whole gateway', () => {
  it('a get over streamable HTTP returns the same record and candidate as the source server called directly', async () => {
    const gateway = await startTestGateway({ SCIGATE_UNIPROT_BASE_URL: provider.baseUrl });
    try {
      const client = await gateway.connect();
      const viaGateway = (await client.callTool({ name: 'mcp__uniprot__get', arguments: { accession: 'A4Q9F3' } })) as any;
      const direct = expectValidResult(await source.call('get', { accession: 'A4Q9F3' }));
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
