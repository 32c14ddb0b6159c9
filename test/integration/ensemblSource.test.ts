import { describe, expect, it } from 'vitest';
import { ensemblSource } from '../../sources/ensembl/index.js';
import { ensemblReplay } from '../fixtures/providers/ensemblReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(ensemblSource, ensemblReplay);

/** Ensembl results: the shared checks, and every record's landing page is its stable-id page. */
const expectEnsemblResult = (result: SourceToolResult) =>
  expectValidResult(result, ensemblSource, { recordUrl: (r) => `https://www.ensembl.org/id/${r.sourceRecordId}` });

describeSourceContract(ensemblSource, { tools: ['get', 'search', 'sequence'] });

describe('Ensembl source: registration', () => {
  it('paces requests at 15 per second', () => {
    expect(ensemblSource.manifest.limits.minTimeMs).toBe(67);
  });
});

describe('Ensembl lookups against the 2018 captures', () => {
  it('search looks a symbol up in a species and returns the gene with its transcripts', async () => {
    const out = expectEnsemblResult(await source.call('search', { symbol: 'BRCA2', species: 'Homo sapiens', expand: true }));
    expect(source.requestUrl().pathname).toBe('/lookup/symbol/homo_sapiens/BRCA2');
    expect(source.requestUrl().searchParams.get('expand')).toBe('1');
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
    const empty = expectEnsemblResult(await source.call('search', { symbol: 'NOSUCHGENE' }));
    expect(empty.records).toEqual([]);
    expect(empty.warnings.join(' ')).toContain('No valid lookup found');
    const species = expectToolError(await source.call('search', { symbol: 'BRCA2', species: 'martian' }), 'invalid_input', false);
    expect(species.message).toContain('martian');
  });

  it('get accepts transcript ids and versioned protein ids', async () => {
    const transcript = expectEnsemblResult(await source.call('get', { id: 'enst00000496384' }));
    expect(source.requestUrl().pathname).toBe('/lookup/id/ENST00000496384');
    expect(transcript.records[0]).toMatchObject({
      id: 'ensembl:ENST00000496384',
      kind: 'transcript',
      title: 'BRAF-204',
      identifiers: { ensemblVersioned: 'ENST00000496384.7' },
    });
    expect(transcript.records[0].fields).toMatchObject({ parent: 'ENSG00000157764', canonical: false });
    const protein = expectEnsemblResult(await source.call('get', { id: 'ENSP00000419060.2' }));
    expect(source.requestUrl().pathname).toBe('/lookup/id/ENSP00000419060.2');
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
      const error = expectToolError(await source.call(tool, { id: 'ENSG99999999999' }), 'not_found', false);
      expect(error.message).toContain("ID 'ENSG99999999999' not found");
    }
  });

  it('rejects malformed ids, symbols and species before any request, naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['get', { id: 'ENSG0000013961' }, 'id'],
      ['get', { id: 'BRCA2' }, 'id'],
      ['sequence', { id: 'ENSG00000139618/../x' }, 'id'],
      ['search', { symbol: 'BRCA2/x' }, 'symbol'],
      ['search', { symbol: 'BRCA2', species: 'homo sapiens!' }, 'species'],
    ];
    await source.expectNoRequests(async () => {
      for (const [tool, args, field] of cases) {
        const error = expectToolError(await source.call(tool, args), 'invalid_input');
        expect(error.message.startsWith(`${field}:`)).toBe(true);
      }
    });
  });
});

describe('Ensembl sequences', () => {
  it('returns a protein sequence with a FASTA candidate on rest.ensembl.org', async () => {
    const out = expectEnsemblResult(await source.call('sequence', { id: 'ENSP00000419060.2', type: 'protein' }));
    expect(source.requestUrl().searchParams.get('type')).toBe('protein');
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
    const out = expectEnsemblResult(await source.call('sequence', { id: 'ENSG00000139618', type: 'protein' }));
    expect(source.requestUrl().searchParams.get('multiple_sequences')).toBe('1');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['ENSP00000369497', 'ENSP00000433168', 'ENSP00000434898', 'ENSP00000439902']);
    expect(out.artifacts).toHaveLength(4);
    expect(new Set(out.artifacts.map((a: any) => a.id)).size).toBe(4);
  });
});

describe('Ensembl provider failures', () => {
  it('a sequence answer with no sequence in it (HTTP 200, []) is not_found, naming the id and type', async () => {
    const error = expectToolError(await source.call('sequence', { id: 'ENSG00000000208', type: 'protein' }), 'not_found', false);
    expect(error.message).toContain('Ensembl has no protein sequence for ENSG00000000208');
    expect(error.message).toContain('try type genomic or cdna');
    const untyped = expectToolError(await source.call('sequence', { id: 'ENSG00000000208' }), 'not_found', false);
    expect(untyped.message).toBe('Ensembl has no sequence for ENSG00000000208');
  });

  it('a 429 is rate_limited and honours the fractional Retry-After', async () => {
    const error = expectToolError(await source.call('get', { id: 'ENSG00000000429' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(400);
    expect(error.message).toContain('15 requests per second');
  });

  it('a 503 is a retryable upstream_error', async () => {
    expectToolError(await source.call('get', { id: 'ENSG00000000503' }), 'upstream_error', true);
  });

  it('a connection cut mid-body and a cut JSON body are both retryable upstream_errors', async () => {
    expectToolError(await source.call('get', { id: 'ENSG00000000206' }), 'upstream_error', true);
    expectToolError(await source.call('get', { id: 'ENSG00000000207' }), 'upstream_error', true);
  });
});
