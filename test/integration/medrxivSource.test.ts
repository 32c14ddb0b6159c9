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
import { medrxivSource } from '../../catalog/sources/medrxiv/index.js';
import { startReplayServer, type ReplayServer } from '../fixtures/providers/replayServer.js';
import { RXIV_FAILING_DOIS, RXIV_REJECTED_INTERVAL } from '../fixtures/providers/biorxivReplay.js';
import { medrxivReplay } from '../fixtures/providers/medrxivReplay.js';
import { connectSource } from '../fixtures/sourceClient.js';

const validateResult = new Ajv({ allErrors: true }).compile(mcpToolResultJsonSchema);
let provider: ReplayServer;
let source: Awaited<ReturnType<typeof connectSource>>;

beforeAll(async () => {
  provider = await startReplayServer(medrxivReplay);
  source = await connectSource(medrxivSource, { baseUrl: provider.baseUrl });
});
afterAll(async () => {
  await source.close();
  await provider.close();
});

/** A successful result: schema-valid, medRxiv identities, one https PDF on www.medrxiv.org per version record. */
function expectValidResult(result: { isError?: boolean; structuredContent?: any }) {
  expect(result.isError).toBeFalsy();
  const out = result.structuredContent;
  expect(validateResult(out), JSON.stringify(validateResult.errors)).toBe(true);
  expect(out.sourceId).toBe('medrxiv');
  for (const record of out.records) {
    expect(record.id).toBe(`medrxiv:${record.sourceRecordId}`);
    expect(record.url).toBe(`https://www.medrxiv.org/content/${record.sourceRecordId}`);
    expect(record.citation).toMatchObject({ url: record.url, venue: 'medRxiv' });
  }
  expect((out.artifacts ?? []).map((a: any) => a.url)).toEqual(out.records.map((r: any) => `${r.url}.full.pdf`));
  for (const candidate of out.artifacts ?? []) {
    expect(isHostAllowed(new URL(candidate.url).hostname, medrxivSource.manifest.allowedDomains)).toBe(true);
    expect(candidate.sourceId).toBe('medrxiv');
  }
  return out;
}

function expectError(result: { isError?: boolean; structuredContent?: any }, code: string, retryable: boolean) {
  expect(result.isError).toBe(true);
  expect(result.structuredContent.error).toMatchObject({ code, retryable });
  return result.structuredContent.error as { message: string; retryAfterMs?: number };
}

describe('medRxiv source: registration', () => {
  it('is registered with get and list, sharing the api.biorxiv.org budget with bioRxiv', async () => {
    expect(findBuiltinSource('medrxiv')).toBe(medrxivSource);
    expect(parseSourceManifest(medrxivSource.manifest)).toEqual(medrxivSource.manifest);
    expect(medrxivSource.manifest.limits.limitGroup).toBe(findBuiltinSource('biorxiv')!.manifest.limits.limitGroup);
    const { tools } = await source.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'list']);
    const ajv = new Ajv();
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
      expect(governedToolName('medrxiv', tool.name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
  });
});

describe('medRxiv get and list', () => {
  it('returns all three versions of a preprint, newest first, from the medrxiv server', async () => {
    const out = expectValidResult(await source.call('get', { doi: '10.1101/2021.12.11.21267504' }));
    expect(provider.requests.at(-1)).toBe('/details/medrxiv/10.1101/2021.12.11.21267504/na/json');
    expect(out.records.map((r: any) => r.fields.version)).toEqual([3, 2, 1]);
    expect(out.records[0]).toMatchObject({ id: 'medrxiv:10.1101/2021.12.11.21267504v3', published: '2022-04-07' });
    expect(out.records[0].fields.type).toBe('PUBLISHAHEADOFPRINT');
    expect(out.artifacts[0]).toMatchObject({
      url: 'https://www.medrxiv.org/content/10.1101/2021.12.11.21267504v3.full.pdf',
      license: 'CC BY 4.0',
    });
  });

  it('accepts the 10.64898 prefix; an unknown DOI is records: [] with a warning', async () => {
    const out = expectValidResult(await source.call('get', { doi: '10.64898/2026.03.23.26348808' }));
    expect(out.records).toEqual([]);
    expect(out.warnings.join(' ')).toContain('medRxiv has no preprint');
  });

  it('lists a date interval with the cursor to the next page', async () => {
    const out = expectValidResult(await source.call('list', { from: '2020-01-01', to: '2022-12-31' }));
    expect(provider.requests.at(-1)).toBe('/details/medrxiv/2020-01-01/2022-12-31/0/json');
    expect(out.records).toHaveLength(50);
    expect(out.records[0]).toMatchObject({ id: 'medrxiv:10.1101/2019.12.26.19014274v1', published: '2020-01-02' });
    expect(out.data).toEqual({ total: 47826, cursor: 0, returned: 50, nextCursor: 50 });
  });

  it('rejects malformed DOIs and dates before any request', async () => {
    const before = provider.requests.length;
    expect(expectError(await source.call('get', { doi: '10.1101/2021.12.11.2126750x' }), 'invalid_input', false).message).toContain('doi');
    expect(expectError(await source.call('list', { from: '2021-13-01', to: '2021-12-31' }), 'invalid_input', false).message).toContain('from');
    expect(provider.requests.length).toBe(before);
  });
});

describe('medRxiv provider failures', () => {
  it('a non-ok status inside HTTP 200, 429, 503 and a truncated body are structured errors', async () => {
    expect(expectError(await source.call('list', RXIV_REJECTED_INTERVAL), 'invalid_input', false).message).toContain('Server not recognized');
    expect(expectError(await source.call('get', { doi: RXIV_FAILING_DOIS.rateLimited }), 'rate_limited', true).retryAfterMs).toBe(5000);
    expectError(await source.call('get', { doi: RXIV_FAILING_DOIS.unavailable }), 'upstream_error', true);
    expect(expectError(await source.call('get', { doi: RXIV_FAILING_DOIS.truncated }), 'upstream_error', true).message).toMatch(/truncated/);
  });
});
