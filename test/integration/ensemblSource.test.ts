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
import { ensemblSource } from '../../catalog/sources/ensembl/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { ensemblReplay } from '../fixtures/providers/ensemblReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(ensemblReplay);
  source = await connectSource(ensemblSource, { baseUrl: provider.baseUrl });
});
afterAll(async () => {
  await source.close();
  await provider.close();
});

function expectValidResult(result: { isError?: boolean; structuredContent?: any }) {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  expect(validateResult(result.structuredContent), JSON.stringify(validateResult.errors)).toBe(true);
  for (const candidate of result.structuredContent.artifacts ?? []) {
    const url = new URL(candidate.url);
    expect(url.protocol).toBe('https:');
    expect(isHostAllowed(url.hostname, ensemblSource.manifest.allowedDomains)).toBe(true);
  }
  return result.structuredContent;
}

const lastPath = () => new URL(provider.requests.at(-1)!, 'http://x');

describe('Ensembl source: registration', () => {
  it('is registered with a valid manifest, 15 req/s pacing, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('ensembl')).toBe(ensemblSource);
    expect(parseSourceManifest(ensemblSource.manifest)).toEqual(ensemblSource.manifest);
    expect(ensemblSource.manifest.limits.minTimeMs).toBe(67);
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search', 'sequence']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('ensembl', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('Ensembl lookups against the 2018 captures', () => {
  it('search looks a symbol up in a species and returns the gene with its transcripts', async () => {
    const out = expectValidResult(await source.call('search', { symbol: 'BRCA2', species: 'Homo sapiens', expand: true }));
    expect(lastPath().pathname).toBe('/lookup/symbol/homo_sapiens/BRCA2');
    expect(lastPath().searchParams.get('expand')).toBe('1');
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'ensembl:ENSG00000139618',
      kind: 'gene',
      title: 'BRCA2',
      url: 'https://www.ensembl.org/id/ENSG00000139618',
      identifiers: { ensembl: 'ENSG00000139618', ensemblVersioned: 'ENSG00000139618.14' },
      summary: 'BRCA2, DNA repair associated',
    });
    expect(record.citation.url).toBe(record.url);
    expect(record.citation.text).toContain('Homo sapiens GRCh38 13:32315474-32400266');
    expect(record.fields).toMatchObject({ objectType: 'Gene', biotype: 'protein_coding', seqRegion: '13', strand: 1 });
    expect(record.fields.transcripts).toHaveLength(7);
    expect(record.fields.transcripts[0]).toMatchObject({ id: 'ENST00000380152', canonical: true, translationId: 'ENSP00000369497', proteinLength: 3418 });
  });

  it('an unknown symbol (HTTP 400 "No valid lookup") is an empty search; an unknown species is invalid_input', async () => {
    const empty = expectValidResult(await source.call('search', { symbol: 'NOSUCHGENE' }));
    expect(empty.records).toEqual([]);
    expect(empty.warnings.join(' ')).toContain('No valid lookup found');
    const species = await source.call('search', { symbol: 'BRCA2', species: 'martian' });
    expect(species.structuredContent.error).toMatchObject({ code: 'invalid_input', retryable: false });
    expect(species.structuredContent.error.message).toContain('martian');
  });

  it('get accepts transcript ids and versioned protein ids', async () => {
    const transcript = expectValidResult(await source.call('get', { id: 'enst00000496384' }));
    expect(lastPath().pathname).toBe('/lookup/id/ENST00000496384');
    expect(transcript.records[0]).toMatchObject({
      id: 'ensembl:ENST00000496384',
      kind: 'transcript',
      title: 'BRAF-204',
      identifiers: { ensemblVersioned: 'ENST00000496384.7' },
    });
    expect(transcript.records[0].fields).toMatchObject({ parent: 'ENSG00000157764', canonical: false });
    const protein = expectValidResult(await source.call('get', { id: 'ENSP00000419060.2' }));
    expect(lastPath().pathname).toBe('/lookup/id/ENSP00000419060.2');
    expect(protein.records[0]).toMatchObject({
      id: 'ensembl:ENSP00000419060',
      kind: 'protein',
      url: 'https://www.ensembl.org/id/ENSP00000419060',
      identifiers: { ensembl: 'ENSP00000419060', ensemblVersioned: 'ENSP00000419060.2' },
    });
    expect(protein.records[0].fields).toMatchObject({ length: 767, parent: 'ENST00000496384' });
  });

  it('an unknown id (HTTP 400 with an error JSON) is not_found', async () => {
    for (const tool of ['get', 'sequence']) {
      const result = await source.call(tool, { id: 'ENSG99999999999' });
      expect(result.structuredContent.error).toMatchObject({ code: 'not_found', retryable: false });
      expect(result.structuredContent.error.message).toContain("ID 'ENSG99999999999' not found");
    }
  });

  it('rejects malformed ids, symbols and species before any request, naming the field', async () => {
    const before = provider.requests.length;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['get', { id: 'ENSG0000013961' }, 'id'],
      ['get', { id: 'BRCA2' }, 'id'],
      ['sequence', { id: 'ENSG00000139618/../x' }, 'id'],
      ['search', { symbol: 'BRCA2/x' }, 'symbol'],
      ['search', { symbol: 'BRCA2', species: 'homo sapiens!' }, 'species'],
    ];
    for (const [tool, args, field] of cases) {
      const result = await source.call(tool, args);
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message.startsWith(`${field}:`)).toBe(true);
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('Ensembl sequences', () => {
  it('returns a protein sequence with a FASTA candidate on rest.ensembl.org', async () => {
    const out = expectValidResult(await source.call('sequence', { id: 'ENSP00000419060.2', type: 'protein' }));
    expect(lastPath().searchParams.get('type')).toBe('protein');
    const record = out.records[0];
    expect(record).toMatchObject({ id: 'ensembl:ENSP00000419060', kind: 'sequence', identifiers: { ensemblVersioned: 'ENSP00000419060.2' } });
    expect(record.fields).toMatchObject({ molecule: 'protein', type: 'protein', length: 767 });
    expect(record.fields.sequence).toMatch(/^MAALSGGGGGGAEPGQALFNGDMEP/);
    expect(out.artifacts[0]).toMatchObject({
      url: 'https://rest.ensembl.org/sequence/id/ENSP00000419060.2?type=protein&content-type=text/x-fasta',
      kind: 'fasta',
      mediaType: 'text/x-fasta',
      filename: 'ENSP00000419060.2-protein.fa',
    });
  });

  it('a gene with type protein gives one record and one FASTA per translation', async () => {
    const out = expectValidResult(await source.call('sequence', { id: 'ENSG00000139618', type: 'protein' }));
    expect(lastPath().searchParams.get('multiple_sequences')).toBe('1');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['ENSP00000369497', 'ENSP00000433168', 'ENSP00000434898', 'ENSP00000439902']);
    expect(out.artifacts).toHaveLength(4);
    expect(new Set(out.artifacts.map((a: any) => a.id)).size).toBe(4);
  });
});

describe('Ensembl provider failures', () => {
  it('a 429 is rate_limited and honours the fractional Retry-After', async () => {
    const result = await source.call('get', { id: 'ENSG00000000429' });
    expect(result.structuredContent.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 400 });
    expect(result.structuredContent.error.message).toContain('15 requests per second');
  });

  it('a 503 is a retryable upstream_error', async () => {
    const result = await source.call('get', { id: 'ENSG00000000503' });
    expect(result.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it('a cut connection is retryable upstream_unavailable; a cut JSON body is retryable upstream_error', async () => {
    const cut = await source.call('get', { id: 'ENSG00000000206' });
    expect(cut.structuredContent.error).toMatchObject({ code: 'upstream_unavailable', retryable: true });
    const malformed = await source.call('get', { id: 'ENSG00000000207' });
    expect(malformed.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });
});
