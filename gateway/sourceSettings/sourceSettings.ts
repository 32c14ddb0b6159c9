import { describeZodError, limitOverridesSchema, type LimitOverrides } from '../../catalog/index.js';
import { builtinSources, type SourceDeps } from '../../sources/index.js';
import type { Clock } from '../core/index.js';
import { UsageError, type FlagValues } from '../config/index.js';

type Env = Record<string, string | undefined>;

/** `SCIGATE_ARXIV_BASE_URL` and the like: where a source's provider is, when not the public one. */
export function baseUrlVariable(sourceId: string): string {
  return `SCIGATE_${sourceId.toUpperCase().replaceAll('-', '_')}_BASE_URL`;
}

/** What a built-in source server gets from the environment: base URL override and NCBI settings. */
export function sourceDepsFromEnv(options: {
  sourceId: string;
  env: Env;
  version: string;
  clock: Clock;
  /** Shared by every source of one gateway (see createRequestPacers). */
  pacer: SourceDeps['pacer'];
  fetch?: typeof fetch;
}): SourceDeps {
  const baseUrl = options.env[baseUrlVariable(options.sourceId)];
  return {
    fetch: options.fetch ?? globalThis.fetch,
    userAgent: `scigate/${options.version}`,
    now: () => new Date(options.clock.now()),
    pacer: options.pacer,
    settings: {
      NCBI_API_KEY: options.env.NCBI_API_KEY,
      NCBI_EMAIL: options.env.NCBI_EMAIL,
      // Second hosts some sources reach (see secondaryBaseUrl): PMC's open-access bucket, GEO's accession pages.
      PMC_OA_BASE_URL: options.env.SCIGATE_PUBMED_PMC_OA_BASE_URL,
      GEO_QUERY_BASE_URL: options.env.SCIGATE_GEO_QUERY_BASE_URL,
    },
    ...(baseUrl ? { baseUrl } : {}),
  };
}

/** Second hosts some sources reach, besides their SCIGATE_<ID>_BASE_URL (see secondaryBaseUrl). */
const SECONDARY_URL_VARIABLES = ['SCIGATE_PUBMED_PMC_OA_BASE_URL', 'SCIGATE_GEO_QUERY_BASE_URL'];

/**
 * Refuses a provider URL variable that is set but is no http(s) URL: a source would otherwise
 * start, and answer every call with "could not be reached", a retryable outage that is a typo.
 */
export function checkProviderUrls(env: Env): void {
  const names = [...builtinSources.map((source) => baseUrlVariable(source.manifest.id)), ...SECONDARY_URL_VARIABLES];
  for (const name of names) {
    const value = env[name];
    if (!value) continue;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(`${name} must be an http or https URL, e.g. http://127.0.0.1:8123/api, not ${JSON.stringify(value)}.`);
    }
  }
}

/** The same settings as environment variables, for a source running as its own stdio child. */
export function sourceChildEnv(sourceId: string, env: Env): Record<string, string> {
  const names = [baseUrlVariable(sourceId), 'NCBI_API_KEY', 'NCBI_EMAIL', 'SCIGATE_LOG_LEVEL', ...SECONDARY_URL_VARIABLES];
  return Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n]!]));
}

/** NCBI allows 10 requests/s with an API key instead of 3: the NCBI sources may then call every 300 ms. */
const NCBI_SOURCES_WITH_KEY: LimitOverrides = { pubmed: { minTimeMs: 300 }, clinvar: { minTimeMs: 300 }, geo: { minTimeMs: 300 } };

/** `--source-limits` (SCIGATE_SOURCE_LIMITS), checked field by field, over the defaults the environment implies. */
export function sourceLimitsFlag(flags: FlagValues, env: Env): LimitOverrides {
  const raw: unknown = JSON.parse(String(flags.sourceLimits ?? '{}'));
  const parsed = limitOverridesSchema.safeParse(raw);
  if (!parsed.success) {
    const { field, message } = describeZodError(parsed.error);
    throw new UsageError(`--source-limits (SCIGATE_SOURCE_LIMITS) at ${field || '(root)'}: ${message}.`);
  }
  const known = builtinSources.map((source) => source.manifest.id);
  // The keys as written: the schema's record skips one named "__proto__", which would be dropped unsaid.
  const unknown = Object.keys(raw as object).filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    throw new UsageError(
      `--source-limits (SCIGATE_SOURCE_LIMITS) names ${unknown.map((id) => JSON.stringify(id)).join(', ')}, not a built-in source; the built-in sources are ${known.join(', ')}. ` +
        'A custom server\'s limits are set in its own config ("limits", admin API or page).',
    );
  }
  const defaults = env.NCBI_API_KEY?.trim() ? NCBI_SOURCES_WITH_KEY : {};
  const merged: LimitOverrides = { ...defaults };
  for (const [id, override] of Object.entries(parsed.data)) merged[id] = { ...merged[id], ...override };
  return merged;
}
