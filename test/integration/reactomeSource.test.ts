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
import { reactomeSource } from '../../catalog/sources/reactome/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { reactomeReplay } from '../fixtures/providers/reactomeReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(reactomeReplay);
  source = await connectSource(reactomeSource, { baseUrl: `${provider.baseUrl}/ContentService` });
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
    expect(isHostAllowed(url.hostname, reactomeSource.manifest.allowedDomains)).toBe(true);
  }
  return result.structuredContent;
}

describe('Reactome source: registration', () => {
  it('is registered with a valid manifest, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('reactome')).toBe(reactomeSource);
    expect(parseSourceManifest(reactomeSource.manifest)).toEqual(reactomeSource.manifest);
    expect(reactomeSource.manifest.license).toContain('CC BY 4.0');
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('reactome', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('Reactome search', () => {
  it('returns records with the Solr highlighting stripped from names (real, minimized capture)', async () => {
    const out = expectValidResult(await source.call('search', { query: 'MAPK signaling pathway' }));
    const sent = new URL(provider.requests.at(-1)!, 'http://x');
    expect(sent.pathname).toBe('/ContentService/search/query');
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({ query: 'MAPK signaling pathway', species: 'Homo sapiens', types: 'Pathway,Reaction', cluster: 'true' });
    expect(out.records).toHaveLength(10);
    expect(out.records[0]).toMatchObject({
      id: 'reactome:R-HSA-9652817',
      title: 'Signaling by MAPK mutants',
      url: 'https://reactome.org/content/detail/R-HSA-9652817',
      identifiers: { reactome: 'R-HSA-9652817' },
    });
    for (const record of out.records) expect(record.title).not.toMatch(/[<>]/);
    expect(out.records[1].citation).toMatchObject({ url: 'https://reactome.org/content/detail/R-HSA-6802957' });
    expect(out.data).toMatchObject({ start: 0, nextStart: null });
  });

  it('HTTP 404 (no entries found) is an empty result, not an error (constructed fixture)', async () => {
    const out = expectValidResult(await source.call('search', { query: 'nothingatall' }));
    expect(out.records).toEqual([]);
    expect(out.data).toEqual({ totalResults: 0, start: 0, nextStart: null });
  });
});

describe('Reactome get', () => {
  it('reads the minimized real capture: name, species and summation as plain text', async () => {
    const out = expectValidResult(await source.call('get', { id: 'R-HSA-5673001' }));
    expect(provider.requests.slice(-2)).toEqual(['/ContentService/data/query/R-HSA-5673001', '/ContentService/data/participants/R-HSA-5673001']);
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'reactome:R-HSA-5673001',
      title: 'RAF/MAP kinase cascade',
      url: 'https://reactome.org/content/detail/R-HSA-5673001',
      fields: { species: 'Homo sapiens', participantsCount: null },
    });
    expect(record.summary).toMatch(/^The RAS-RAF-MEK-ERK pathway regulates/);
    expect(record.summary).not.toContain('<br>');
  });

  it('a full pathway gives literature, participants count, version and SBML/SBGN exports (constructed fixture)', async () => {
    const out = expectValidResult(await source.call('get', { id: 'r-hsa-5683057.3' }));
    expect(provider.requests.at(-2)).toBe('/ContentService/data/query/R-HSA-5683057');
    const record = out.records[0];
    expect(record).toMatchObject({
      id: 'reactome:R-HSA-5683057',
      kind: 'pathway',
      title: 'MAPK family signaling cascades',
      identifiers: { reactome: 'R-HSA-5683057', reactomeVersion: 'R-HSA-5683057.3', doi: '10.3180/R-HSA-5683057.1' },
      published: '2016-03-23',
      summary: 'Constructed summation for tests: the MAPK family cascades. Second sentence.',
    });
    expect(record.citation).toMatchObject({ doi: '10.3180/R-HSA-5683057.1', year: 2016, url: record.url });
    expect(record.fields).toMatchObject({ participantsCount: 3, subEventCount: 1, schemaClass: 'Pathway' });
    expect(record.fields.literatureReferences[0]).toMatchObject({ pmid: '10000001', year: 2015, authors: ['Tester, A'] });
    expect(out.artifacts.map((a: any) => [a.kind, a.url])).toEqual([
      ['sbml', 'https://reactome.org/ContentService/exporter/event/R-HSA-5683057.sbml'],
      ['sbgn', 'https://reactome.org/ContentService/exporter/event/R-HSA-5683057.sbgn'],
    ]);
    expect(out.warnings).toEqual([]);
  });

  it('warns when the version asked for is not the one served', async () => {
    const out = expectValidResult(await source.call('get', { id: 'R-HSA-5683057.1' }));
    expect(out.warnings.join(' ')).toContain('R-HSA-5683057.3');
  });

  it('an unknown id is not_found; a malformed id is rejected before any request', async () => {
    const unknown = await source.call('get', { id: 'R-HSA-999999999' });
    expect(unknown.structuredContent.error).toMatchObject({ code: 'not_found', retryable: false });
    const before = provider.requests.length;
    for (const id of ['5673001', 'R-HS-5673001', 'R-HSA-', 'R-HSA-56/73001']) {
      const result = await source.call('get', { id });
      expect(result.structuredContent.error.code).toBe('invalid_input');
      expect(result.structuredContent.error.message.startsWith('id:')).toBe(true);
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('Reactome provider failures', () => {
  it('a 429 is rate_limited with Retry-After passed through', async () => {
    const result = await source.call('search', { query: 'slow down' });
    expect(result.structuredContent.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 5000 });
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
