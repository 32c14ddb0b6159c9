import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../gateway/config/index.js';
import { baseUrlVariable, sourceChildEnv, sourceDepsFromEnv, sourceLimitsFlag } from '../../../gateway/sourceSettings/index.js';
import { createRequestPacers, systemClock } from '../../../gateway/core/index.js';

describe('source settings from the environment', () => {
  it('maps base URL overrides and second hosts by source id', () => {
    expect(baseUrlVariable('custom-abc')).toBe('SCIGATE_CUSTOM_ABC_BASE_URL');
    const env = { SCIGATE_PUBMED_BASE_URL: 'http://127.0.0.1:9/eutils', SCIGATE_PUBMED_PMC_OA_BASE_URL: 'http://127.0.0.1:9/oa', NCBI_EMAIL: 'a@b.org', SECRET: 'x' };
    const deps = sourceDepsFromEnv({ sourceId: 'pubmed', env, version: '1.2.3', clock: systemClock, pacer: createRequestPacers(systemClock) });
    expect(deps).toMatchObject({ baseUrl: 'http://127.0.0.1:9/eutils', userAgent: 'scigate/1.2.3', settings: { PMC_OA_BASE_URL: 'http://127.0.0.1:9/oa', NCBI_EMAIL: 'a@b.org' } });
    expect(sourceChildEnv('pubmed', env)).toEqual({
      SCIGATE_PUBMED_BASE_URL: 'http://127.0.0.1:9/eutils',
      SCIGATE_PUBMED_PMC_OA_BASE_URL: 'http://127.0.0.1:9/oa',
      NCBI_EMAIL: 'a@b.org',
    });
  });

  it('lets the NCBI sources call every 300 ms with an API key; explicit overrides still win', () => {
    expect(sourceLimitsFlag({ sourceLimits: '{}' }, {})).toEqual({});
    expect(sourceLimitsFlag({ sourceLimits: '{}' }, { NCBI_API_KEY: 'k' }).pubmed).toEqual({ minTimeMs: 300 });
    const merged = sourceLimitsFlag({ sourceLimits: '{"pubmed":{"minTimeMs":500,"concurrency":2}}' }, { NCBI_API_KEY: 'k' });
    expect(merged.pubmed).toEqual({ minTimeMs: 500, concurrency: 2 });
    expect(merged.geo).toEqual({ minTimeMs: 300 });
  });

  it('names the flag and the field when an override is wrong', () => {
    expect(() => sourceLimitsFlag({ sourceLimits: '{"arxiv":{"timeoutSeconds":601}}' }, {})).toThrow(UsageError);
    expect(() => sourceLimitsFlag({ sourceLimits: '{"arxiv":{"timeoutSeconds":601}}' }, {})).toThrow(/--source-limits.*arxiv\.timeoutSeconds/);
  });

  it('refuses an id that is not a built-in source, naming it and the sources there are', () => {
    const typo = () => sourceLimitsFlag({ sourceLimits: '{"arxiv":{"minTimeMs":0},"pubmd":{"minTimeMs":0}}' }, {});
    expect(typo).toThrow(UsageError);
    expect(typo).toThrow(/--source-limits \(SCIGATE_SOURCE_LIMITS\) names "pubmd", not a built-in source; the built-in sources are .*pubmed/);
    expect(typo).toThrow(/custom server's limits are set in its own config/);
  });

  it('refuses "__proto__" as a source id too, rather than dropping it unsaid', () => {
    expect(() => sourceLimitsFlag({ sourceLimits: '{"__proto__":{"minTimeMs":1}}' }, {})).toThrow(/names "__proto__", not a built-in source/);
  });
});
