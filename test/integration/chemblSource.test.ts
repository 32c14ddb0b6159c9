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
import { chemblSource } from '../../catalog/sources/chembl/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { chemblReplay } from '../fixtures/providers/chemblReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(chemblReplay);
  source = await connectSource(chemblSource, { baseUrl: `${provider.baseUrl}/chembl/api/data` });
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
    expect(isHostAllowed(url.hostname, chemblSource.manifest.allowedDomains)).toBe(true);
  }
  return result.structuredContent;
}

const lastRequest = () => new URL(provider.requests.at(-1)!, 'http://x');

describe('ChEMBL source: registration', () => {
  it('is registered with a valid manifest, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('chembl')).toBe(chemblSource);
    expect(parseSourceManifest(chemblSource.manifest)).toEqual(chemblSource.manifest);
    expect(chemblSource.manifest.license).toContain('CC BY-SA 3.0');
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('chembl', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('ChEMBL get', () => {
  it('returns name, max phase, structures, parsed properties and an SDF candidate (constructed molecule)', async () => {
    const out = expectValidResult(await source.call('get', { id: 'chembl25' }));
    expect(provider.requests.slice(-2)).toEqual([
      '/chembl/api/data/molecule/CHEMBL25.json',
      '/chembl/api/data/mechanism.json?molecule_chembl_id=CHEMBL25&limit=100',
    ]);
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'chembl:CHEMBL25',
      kind: 'compound',
      title: 'ASPIRIN',
      url: 'https://www.ebi.ac.uk/chembl/explore/compound/CHEMBL25',
      identifiers: { chembl: 'CHEMBL25', inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
    });
    expect(record.citation.url).toBe(record.url);
    expect(record.fields).toMatchObject({
      preferredName: 'ASPIRIN',
      maxPhase: 4,
      firstApproval: 1950,
      structures: { canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', standardInchiKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
      properties: { fullMolecularWeight: 180.16, alogp: 1.31, hydrogenBondAcceptors: 3, polarSurfaceArea: 63.6, molecularFormula: 'C9H8O4' },
      mechanisms: [],
    });
    expect(out.artifacts).toEqual([
      expect.objectContaining({ url: 'https://www.ebi.ac.uk/chembl/api/data/molecule/CHEMBL25.sdf', kind: 'sdf', filename: 'CHEMBL25.sdf' }),
    ]);
  });

  it('gives a biologic its mechanisms (real capture) and no SDF candidate', async () => {
    const out = expectValidResult(await source.call('get', { id: 'CHEMBL3137343' }));
    const record = out.records[0];
    expect(record.title).toBe('PEMBROLIZUMAB');
    expect(record.fields).toMatchObject({ moleculeType: 'Antibody', maxPhase: 4, structures: null, properties: null });
    expect(record.fields.mechanisms).toEqual([
      {
        mechanismOfAction: 'Programmed cell death protein 1 inhibitor',
        actionType: 'INHIBITOR',
        targetChemblId: 'CHEMBL3307223',
        maxPhase: 4,
        references: [{ type: 'FDA', id: 'label/2014/125514lbl.pdf', url: 'http://www.accessdata.fda.gov/drugsatfda_docs/label/2014/125514lbl.pdf' }],
      },
    ]);
    expect(out.artifacts).toBeUndefined();
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    const unknown = await source.call('get', { id: 'CHEMBL999' });
    expect(unknown.structuredContent.error).toMatchObject({ code: 'not_found', retryable: false });
    const before = provider.requests.length;
    for (const id of ['25', 'CHEMBL', 'CHEMBL25x', 'CHEMBL25/../x']) {
      const result = await source.call('get', { id });
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message.startsWith('id:')).toBe(true);
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('ChEMBL search and paging (constructed pages)', () => {
  it('follows the relative page_meta.next to the last page', async () => {
    const first = expectValidResult(await source.call('search', { query: 'aspirin', limit: 1 }));
    expect(Object.fromEntries(lastRequest().searchParams)).toEqual({ q: 'aspirin', limit: '1', offset: '0' });
    expect(first.records.map((r: any) => r.id)).toEqual(['chembl:CHEMBL25']);
    expect(first.records[0].fields.searchScore).toBe(17.25);
    expect(first.data).toEqual({
      totalCount: 2,
      offset: 0,
      limit: 1,
      nextCursor: '/chembl/api/data/molecule/search.json?limit=1&offset=1&q=aspirin',
    });

    const second = expectValidResult(await source.call('search', { query: 'aspirin', cursor: first.data.nextCursor }));
    // The request is ChEMBL's own next link, resolved against the configured host.
    expect(provider.requests.at(-1)).toBe('/chembl/api/data/molecule/search.json?limit=1&offset=1&q=aspirin');
    expect(second.records.map((r: any) => r.id)).toEqual(['chembl:CHEMBL999999999']);
    expect(second.data.nextCursor).toBeNull();
  });

  it('an empty search is records: [] without an error', async () => {
    const out = expectValidResult(await source.call('search', { query: 'zzzz nothing' }));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ totalCount: 0, nextCursor: null });
  });

  it('rejects a limit above 1000 and foreign or mismatched cursors before any request', async () => {
    const before = provider.requests.length;
    expect((await source.call('search', { query: 'aspirin', limit: 1001 })).isError).toBe(true);
    const cursors = [
      'https://evil.example/chembl/api/data/molecule/search.json?q=aspirin',
      '//evil.example/chembl/api/data/molecule/search.json?q=aspirin',
      '/chembl/api/data/activity.json?q=aspirin',
      '/chembl/api/data/molecule/search.json?limit=1&offset=1&q=ibuprofen',
    ];
    for (const cursor of cursors) {
      const result = await source.call('search', { query: 'aspirin', cursor });
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message.startsWith('cursor:')).toBe(true);
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('ChEMBL provider failures', () => {
  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const result = await source.call('search', { query: 'slow down' });
    expect(result.structuredContent.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 10_000 });
  });

  it('a 503 is a retryable upstream_error', async () => {
    const result = await source.call('search', { query: 'maintenance' });
    expect(result.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it('a cut connection is retryable upstream_unavailable; a cut JSON body is retryable upstream_error', async () => {
    expect((await source.call('search', { query: 'cut connection' })).structuredContent.error).toMatchObject({
      code: 'upstream_unavailable',
      retryable: true,
    });
    expect((await source.call('search', { query: 'cut json' })).structuredContent.error).toMatchObject({
      code: 'upstream_error',
      retryable: true,
    });
  });
});
