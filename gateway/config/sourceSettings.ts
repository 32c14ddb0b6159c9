import { limitOverridesSchema, type LimitOverrides, type SourceDeps } from '../../catalog/index.js';
import { UsageError, type FlagValues } from './parseCommandLine.js';

type Env = Record<string, string | undefined>;

/** `SCIGATE_ARXIV_BASE_URL` and the like: where a source's provider is, when not the public one. */
export function baseUrlVariable(sourceId: string): string {
  return `SCIGATE_${sourceId.toUpperCase().replaceAll('-', '_')}_BASE_URL`;
}

/** What a built-in source server gets from the environment: base URL override and NCBI settings. */
export function sourceDepsFromEnv(options: { sourceId: string; env: Env; version: string; fetch?: typeof fetch }): SourceDeps {
  const baseUrl = options.env[baseUrlVariable(options.sourceId)];
  return {
    fetch: options.fetch ?? globalThis.fetch,
    userAgent: `scigate/${options.version}`,
    settings: { NCBI_API_KEY: options.env.NCBI_API_KEY, NCBI_EMAIL: options.env.NCBI_EMAIL },
    ...(baseUrl ? { baseUrl } : {}),
  };
}

/** The same settings as environment variables, for a source running as its own stdio child. */
export function sourceChildEnv(sourceId: string, env: Env): Record<string, string> {
  const names = [baseUrlVariable(sourceId), 'NCBI_API_KEY', 'NCBI_EMAIL', 'SCIGATE_LOG_LEVEL'];
  return Object.fromEntries(names.filter((n) => env[n]).map((n) => [n, env[n]!]));
}

/** `--source-limits` (SCIGATE_SOURCE_LIMITS), checked field by field. */
export function sourceLimitsFlag(flags: FlagValues): LimitOverrides {
  const parsed = limitOverridesSchema.safeParse(JSON.parse(String(flags.sourceLimits ?? '{}')));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`--source-limits (SCIGATE_SOURCE_LIMITS) at ${issue.path.join('.') || '(root)'}: ${issue.message}.`);
}
