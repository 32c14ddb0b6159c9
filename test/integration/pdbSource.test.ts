import { describe, expect, it } from 'vitest';
import { pdbSource } from '../../sources/pdb/index.js';
import { pdbEndpoints } from '../../sources/pdb/pdbHosts.js';
import { pdbReplay } from '../fixtures/providers/pdbReplay.js';
import { describeSourceContract, expectToolError, expectValidResult, withReplayedSource, type SourceToolResult } from '../fixtures/sourceContract.js';

const source = withReplayedSource(pdbSource, pdbReplay);

/** PDB results: the shared checks, and every record's landing page is its RCSB structure page. */
const expectPdbResult = (result: SourceToolResult) =>
  expectValidResult(result, pdbSource, { recordUrl: (r) => `https://www.rcsb.org/structure/${r.sourceRecordId}` });

describeSourceContract(pdbSource, { tools: ['get', 'search'] });

describe('PDB source: registration and hosts', () => {
  it('is published under CC0', () => {
    expect(pdbSource.manifest.license).toContain('CC0');
  });

  it('derives the search and data hosts from one base override, and the public hosts without one', () => {
    expect(pdbEndpoints(undefined)).toEqual({
      search: 'https://search.rcsb.org/rcsbsearch/v2/query',
      core: 'https://data.rcsb.org/rest/v1/core',
      graphql: 'https://data.rcsb.org/graphql',
    });
    expect(pdbEndpoints('https://mirror.example/rcsb/')).toEqual({
      search: 'https://mirror.example/rcsb/search/rcsbsearch/v2/query',
      core: 'https://mirror.example/rcsb/data/rest/v1/core',
      graphql: 'https://mirror.example/rcsb/data/graphql',
    });
  });
});

describe('PDB get against the captured entry', () => {
  it('returns title, method, resolution, release date, polymer entities and the primary citation', async () => {
    const out = expectPdbResult(await source.call('get', { id: '4hhb' }));
    expect(source.requests.slice(-3)).toEqual([
      '/data/rest/v1/core/entry/4HHB',
      '/data/rest/v1/core/polymer_entity/4HHB/1',
      '/data/rest/v1/core/polymer_entity/4HHB/2',
    ]);
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'pdb:4HHB',
      sourceRecordId: '4HHB',
      kind: 'structure',
      title: 'THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION',
      url: 'https://www.rcsb.org/structure/4HHB',
      identifiers: { pdb: '4HHB', doi: '10.2210/pdb4hhb/pdb', pmid: '6726807' },
      published: '1984-07-17',
    });
    expect(record.citation).toMatchObject({
      url: 'https://www.rcsb.org/structure/4HHB',
      doi: '10.1016/0022-2836(84)90472-8',
      year: 1984,
      venue: 'J Mol Biol',
      authors: ['Fermi, G.', 'Perutz, M.F.', 'Shaanan, B.', 'Fourme, R.'],
    });
    expect(record.citation.text).toContain('10.2210/pdb4hhb/pdb');
    expect(record.fields).toMatchObject({ methods: ['X-RAY DIFFRACTION'], resolutionAngstrom: 1.74, releaseDate: '1984-07-17' });
    // Polymer entities come from constructed polymer_entity fixtures (no capture exists).
    expect(record.fields.polymerEntities).toEqual([
      expect.objectContaining({ entityId: '1', description: 'Hemoglobin subunit alpha', chains: ['A', 'C'], uniprotIds: ['P69905'] }),
      expect.objectContaining({ entityId: '2', description: 'Hemoglobin subunit beta', chains: ['B', 'D'], uniprotIds: ['P68871'] }),
    ]);
    expect(record.fields.primaryCitation).toMatchObject({ pmid: '6726807', doi: '10.1016/0022-2836(84)90472-8' });
  });

  it('offers mmCIF and, for a PDB-format compatible entry, the PDB file on files.rcsb.org', async () => {
    const out = expectPdbResult(await source.call('get', { id: '4HHB' }));
    expect(out.artifacts.map((a: any) => [a.kind, a.url, a.filename])).toEqual([
      ['mmcif', 'https://files.rcsb.org/download/4HHB.cif', '4HHB.cif'],
      ['pdb', 'https://files.rcsb.org/download/4HHB.pdb', '4HHB.pdb'],
    ]);
    expect(new Set(out.artifacts.map((a: any) => a.id)).size).toBe(2);
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    expectToolError(await source.call('get', { id: '9zzz' }), 'not_found', false);
    await source.expectNoRequests(async () => {
      for (const id of ['0ABC', 'HHB', '4HHBB', '4H/B']) {
        const error = expectToolError(await source.call('get', { id }), 'invalid_input');
        expect(error.message).toContain('id:');
      }
    });
  });
});

describe('PDB search (constructed Search API and GraphQL answers)', () => {
  it('sends a full-text query and pages with start until the total is reached', async () => {
    const first = expectPdbResult(await source.call('search', { query: 'hemoglobin', rows: 1 }));
    const sent = JSON.parse(source.requestUrl(-2).searchParams.get('json')!);
    expect(sent).toMatchObject({
      query: { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } },
      return_type: 'entry',
      request_options: { paginate: { start: 0, rows: 1 } },
    });
    expect(source.requests.at(-1)).toMatch(/^\/data\/graphql\?query=/);
    expect(first.records.map((r: any) => r.id)).toEqual(['pdb:4HHB']);
    expect(first.records[0].title).toBe('THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION');
    expect(first.data).toMatchObject({ totalResults: 2, start: 0, nextStart: 1 });

    const second = expectPdbResult(await source.call('search', { query: 'hemoglobin', rows: 1, start: first.data.nextStart }));
    const record = second.records[0];
    expect(record).toMatchObject({ id: 'pdb:1A7G', published: '1999-04-27', identifiers: { pdb: '1A7G', pmid: '10089498' } });
    expect(record.citation).toMatchObject({ doi: '10.1107/S0907444998005587', venue: 'Acta Crystallogr.,Sect.D', year: 1998 });
    expect(second.data).toMatchObject({ totalResults: 2, start: 1, nextStart: null });
  });

  it('HTTP 204 with an empty body is an empty result, without a GraphQL call', async () => {
    const out = await source.expectRequests(1, async () => expectPdbResult(await source.call('search', { query: 'no such structure' })));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ totalResults: 0, nextStart: null });
  });
});

describe('PDB provider failures', () => {
  it('a 400 is invalid_input with the provider message', async () => {
    const error = expectToolError(await source.call('search', { query: 'bad query' }), 'invalid_input', false);
    expect(error.message).toContain('unexpected character');
  });

  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const error = expectToolError(await source.call('search', { query: 'slow down' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(3000);
  });

  it('a 503 and a body cut mid-response are retryable upstream_errors', async () => {
    expectToolError(await source.call('search', { query: 'maintenance' }), 'upstream_error', true);
    expectToolError(await source.call('search', { query: 'cut connection' }), 'upstream_error', true);
  });
});
