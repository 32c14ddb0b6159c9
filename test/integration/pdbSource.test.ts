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
import { pdbSource } from '../../catalog/sources/pdb/index.js';
import { pdbEndpoints } from '../../catalog/sources/pdb/pdbHosts.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { pdbReplay } from '../fixtures/providers/pdbReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(pdbReplay);
  source = await connectSource(pdbSource, { baseUrl: provider.baseUrl });
});
afterAll(async () => {
  await source.close();
  await provider.close();
});

function expectValidResult(result: { isError?: boolean; structuredContent?: any }) {
  expect(result.isError).toBeFalsy();
  expect(validateResult(result.structuredContent), JSON.stringify(validateResult.errors)).toBe(true);
  for (const candidate of result.structuredContent.artifacts ?? []) {
    const url = new URL(candidate.url);
    expect(url.protocol).toBe('https:');
    expect(isHostAllowed(url.hostname, pdbSource.manifest.allowedDomains)).toBe(true);
  }
  return result.structuredContent;
}

describe('PDB source: registration and hosts', () => {
  it('is registered with a valid manifest, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('pdb')).toBe(pdbSource);
    expect(parseSourceManifest(pdbSource.manifest)).toEqual(pdbSource.manifest);
    expect(pdbSource.manifest.license).toContain('CC0');
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('pdb', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
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
    const out = expectValidResult(await source.call('get', { id: '4hhb' }));
    expect(provider.requests.slice(-3)).toEqual([
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
    const out = expectValidResult(await source.call('get', { id: '4HHB' }));
    expect(out.artifacts.map((a: any) => [a.kind, a.url, a.filename])).toEqual([
      ['mmcif', 'https://files.rcsb.org/download/4HHB.cif', '4HHB.cif'],
      ['pdb', 'https://files.rcsb.org/download/4HHB.pdb', '4HHB.pdb'],
    ]);
    expect(new Set(out.artifacts.map((a: any) => a.id)).size).toBe(2);
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    const unknown = await source.call('get', { id: '9zzz' });
    expect(unknown.structuredContent.error).toMatchObject({ code: 'not_found', retryable: false });
    const before = provider.requests.length;
    for (const id of ['0ABC', 'HHB', '4HHBB', '4H/B']) {
      const result = await source.call('get', { id });
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message).toContain('id:');
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('PDB search (constructed Search API and GraphQL answers)', () => {
  it('sends a full-text query and pages with start until the total is reached', async () => {
    const first = expectValidResult(await source.call('search', { query: 'hemoglobin', rows: 1 }));
    const sent = JSON.parse(new URL(provider.requests.at(-2)!, 'http://x').searchParams.get('json')!);
    expect(sent).toMatchObject({
      query: { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } },
      return_type: 'entry',
      request_options: { paginate: { start: 0, rows: 1 } },
    });
    expect(provider.requests.at(-1)).toMatch(/^\/data\/graphql\?query=/);
    expect(first.records.map((r: any) => r.id)).toEqual(['pdb:4HHB']);
    expect(first.records[0].title).toBe('THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION');
    expect(first.data).toMatchObject({ totalResults: 2, start: 0, nextStart: 1 });

    const second = expectValidResult(await source.call('search', { query: 'hemoglobin', rows: 1, start: first.data.nextStart }));
    const record = second.records[0];
    expect(record).toMatchObject({ id: 'pdb:1A7G', published: '1999-04-27', identifiers: { pdb: '1A7G', pmid: '10089498' } });
    expect(record.citation).toMatchObject({ doi: '10.1107/S0907444998005587', venue: 'Acta Crystallogr.,Sect.D', year: 1998 });
    expect(second.data).toMatchObject({ totalResults: 2, start: 1, nextStart: null });
  });

  it('HTTP 204 with an empty body is an empty result, without a GraphQL call', async () => {
    const before = provider.requests.length;
    const out = expectValidResult(await source.call('search', { query: 'no such structure' }));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ totalResults: 0, nextStart: null });
    expect(provider.requests.length).toBe(before + 1);
  });
});

describe('PDB provider failures', () => {
  it('a 400 is invalid_input with the provider message', async () => {
    const result = await source.call('search', { query: 'bad query' });
    expect(result.structuredContent.error).toMatchObject({ code: 'invalid_input', retryable: false });
    expect(result.structuredContent.error.message).toContain('unexpected character');
  });

  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const result = await source.call('search', { query: 'slow down' });
    expect(result.structuredContent.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 3000 });
  });

  it('a 503 is a retryable upstream_error and a cut body is retryable upstream_unavailable', async () => {
    expect((await source.call('search', { query: 'maintenance' })).structuredContent.error).toMatchObject({
      code: 'upstream_error',
      retryable: true,
    });
    expect((await source.call('search', { query: 'cut connection' })).structuredContent.error).toMatchObject({
      code: 'upstream_unavailable',
      retryable: true,
    });
  });
});
