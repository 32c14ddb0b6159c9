import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import {
  MAX_TOOL_NAME_CHARS,
  findBuiltinSource,
  governedToolName,
  mcpToolResultJsonSchema,
  parseSourceManifest,
} from '../../catalog/index.js';
import { clinvarSource } from '../../catalog/sources/clinvar/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { clinvarReplay } from '../fixtures/providers/clinvarReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
const NAME = 'NM_014855.3(AP5Z1):c.80_83delinsTGCTGTAAACTGTAACTGTAAA (p.Arg27_Ile28delinsLeuLeuTer)';
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(clinvarReplay);
  source = await connectSource(clinvarSource, { baseUrl: `${provider.baseUrl}/entrez/eutils` });
});
afterAll(async () => {
  await source.close();
  await provider.close();
});

/** A successful result, valid against the published schema, whose records carry ClinVar identities and URLs. */
function expectValidResult(result: { isError?: boolean; structuredContent?: any }) {
  expect(result.isError).toBeFalsy();
  expect(validateResult(result.structuredContent), JSON.stringify(validateResult.errors)).toBe(true);
  for (const record of result.structuredContent.records) {
    expect(record.id).toBe(`clinvar:${record.sourceRecordId}`);
    expect(record.sourceRecordId).toMatch(/^VCV\d{9}$/);
    expect(record.url).toBe(`https://www.ncbi.nlm.nih.gov/clinvar/variation/${record.identifiers.clinvarVariationId}/`);
    expect(record.citation.url).toBe(record.url);
  }
  expect(result.structuredContent.artifacts).toBeUndefined();
  return result.structuredContent;
}

function expectError(result: { isError?: boolean; structuredContent?: any }, code: string, retryable: boolean) {
  expect(result.isError).toBe(true);
  expect(result.structuredContent.error).toMatchObject({ code, retryable });
  return result.structuredContent.error as { message: string; retryAfterMs?: number };
}

describe('ClinVar source: registration', () => {
  it('is registered with a valid NCBI-group manifest, ajv-compilable input schemas and short governed names', async () => {
    expect(findBuiltinSource('clinvar')).toBe(clinvarSource);
    expect(parseSourceManifest(clinvarSource.manifest)).toEqual(clinvarSource.manifest);
    expect(clinvarSource.manifest.limits).toMatchObject({ limitGroup: 'ncbi', minTimeMs: 1000 });
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'search']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('clinvar', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('ClinVar search', () => {
  it('turns gene and condition into field tags and returns summaries with classifications', async () => {
    const out = expectValidResult(await source.call('search', { gene: 'AP5Z1', condition: 'Hereditary spastic paraplegia 48' }));
    const esearch = new URL(provider.requests.at(-2)!, 'http://x').searchParams;
    expect(esearch.get('term')).toBe('AP5Z1[gene] AND "Hereditary spastic paraplegia 48"[dis]');
    expect(esearch.get('tool')).toBe('scigate');
    expect(provider.requests.at(-1)).toContain('esummary.fcgi?db=clinvar&id=2%2C999999');
    expect(out.records).toHaveLength(1);
    expect(out.records[0]).toMatchObject({ id: 'clinvar:VCV000000002', kind: 'variant', title: NAME });
    expect(out.records[0].identifiers).toEqual({
      clinvar: 'VCV000000002',
      clinvarVariationId: '2',
      clinvarVersion: 'VCV000000002.3',
      dbsnp: 'rs397704705',
    });
    expect(out.records[0].fields).toMatchObject({
      germlineClassification: {
        description: 'Pathogenic',
        reviewStatus: 'criteria provided, single submitter',
        lastEvaluated: '2010-06-29',
        conditions: ['Hereditary spastic paraplegia 48'],
      },
      somaticClinicalImpact: null,
      oncogenicityClassification: null,
      genes: [{ symbol: 'AP5Z1', geneId: '9907' }],
    });
    expect(out.records[0].summary).toContain('Germline: Pathogenic (criteria provided, single submitter)');
    expect(out.warnings.join(' ')).toContain('999999');
  });

  it('an empty search returns records: [] without an ESummary call', async () => {
    const before = provider.requests.length;
    const out = expectValidResult(await source.call('search', { gene: 'NOSUCHGENE1' }));
    expect(out.records).toEqual([]);
    expect(out.data).toMatchObject({ count: 0, nextStart: null });
    expect(provider.requests.length).toBe(before + 1);
  });

  it('needs a query, gene, condition or variant, and a real gene symbol, before any request', async () => {
    const before = provider.requests.length;
    expect(expectError(await source.call('search', {}), 'invalid_input', false).message).toContain('query');
    expect(expectError(await source.call('search', { gene: 'BRCA1 OR x' }), 'invalid_input', false).message).toContain('gene');
    expect(provider.requests.length).toBe(before);
  });
});

describe('ClinVar get', () => {
  it('returns the VCV record with all classifications, HGVS, location and RCVs; the id matches search', async () => {
    const out = expectValidResult(await source.call('get', { ids: ['VCV000000002'] }));
    expect(Object.fromEntries(new URL(provider.requests.at(-1)!, 'http://x').searchParams)).toMatchObject({
      db: 'clinvar',
      rettype: 'vcv',
      is_variationid: 'true',
      id: '2',
    });
    const record = out.records[0];
    expect(record).toMatchObject({ id: 'clinvar:VCV000000002', title: NAME, published: '2017-01-30' });
    expect(record.citation).toMatchObject({ year: 2022, venue: 'ClinVar' });
    expect(record.citation.text).toContain('VCV000000002.3');
    expect(record.fields.hgvs).toEqual(
      expect.arrayContaining(['NM_014855.3:c.80_83delinsTGCTGTAAACTGTAACTGTAAA', 'NP_055670.1:p.Arg27_Ile28delinsLeuLeuTer']),
    );
    expect(record.fields).toMatchObject({
      proteinChange: 'p.Arg27_Ile28delinsLeuLeuTer',
      canonicalSpdi: 'NC_000007.14:4781212:GGAT:TGCTGTAAACTGTAACTGTAAA',
      rcvAccessions: ['RCV000000012'],
      conditions: ['Hereditary spastic paraplegia 48'],
      germlineClassification: { description: 'Pathogenic', reviewStatus: 'criteria provided, single submitter' },
      somaticClinicalImpact: null,
      oncogenicityClassification: null,
      submissionCount: 2,
    });
    expect(record.fields.locations[0]).toEqual({ assembly: 'GRCh38', chr: '7', start: '4781213', stop: '4781216', cytogenetic: '7p22.1' });
  });

  it('normalizes zero-padding: a Variation ID, a short VCV and a padded one are one request for id 2', async () => {
    const out = expectValidResult(await source.call('get', { ids: ['2', 'vcv2', 'VCV000000002.2'] }));
    expect(new URL(provider.requests.at(-1)!, 'http://x').searchParams.get('id')).toBe('2');
    expect(out.records.map((r: any) => r.sourceRecordId)).toEqual(['VCV000000002']);
    expect(out.warnings.join(' ')).toContain('VCV000000002.2 was asked for');
  });

  it('an unknown variation is records: [] with a warning', async () => {
    const out = expectValidResult(await source.call('get', { ids: ['999999999'] }));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('VCV999999999');
  });

  it('rejects RCV accessions and malformed ids, naming the field, before any request', async () => {
    const before = provider.requests.length;
    expect(expectError(await source.call('get', { ids: ['RCV000000010'] }), 'invalid_input', false).message).toMatch(/ids\[0\].*RCV/);
    for (const bad of ['VCV0000000021', 'abc', '0', 'VCV-2']) {
      expect(expectError(await source.call('get', { ids: ['2', bad] }), 'invalid_input', false).message).toContain('ids[1]');
    }
    expect(provider.requests.length).toBe(before);
  });
});

describe('ClinVar provider failures', () => {
  it('an <ERROR> inside an HTTP 200 EFetch body is a structured error', async () => {
    const error = expectError(await source.call('get', { ids: ['888'] }), 'invalid_input', false);
    expect(error.message).toContain('Neither query_key nor id specified');
  });

  it('HTTP 429 is rate_limited with Retry-After', async () => {
    const error = expectError(await source.call('search', { query: 'rate limited' }), 'rate_limited', true);
    expect(error.retryAfterMs).toBe(1000);
  });

  it('HTTP 503 is a retryable upstream_error', async () => {
    expectError(await source.call('search', { query: 'service down' }), 'upstream_error', true);
  });

  it('a truncated VCV document is a retryable upstream_error', async () => {
    expect(expectError(await source.call('get', { ids: ['777'] }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
