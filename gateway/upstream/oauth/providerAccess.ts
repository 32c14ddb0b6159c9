import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CustomUrlPolicy } from '../../../catalog/index.js';
import { providerFetch } from './providerFetch.js';
import type { ProviderTrace } from './providerTrace.js';

/** What an OAuth manager is given to reach the outside (the fields of `OAuthManagerOptions` of the same names). */
export interface ProviderAccessOptions {
  url: string;
  fetch?: FetchLike;
  providerTimeoutMs?: number;
  urlPolicy?: CustomUrlPolicy;
}

/**
 * How one OAuth manager reaches the outside, apart from what it decides to ask: the MCP server's
 * own URL with the plain fetch (the probe bounds itself and reads no body), the authorization
 * server through `providerFetch` (bounded in time, answers read in full and noted in the trace),
 * and the options the SDK's `auth()` is called with.
 */
export function providerAccess(options: ProviderAccessOptions) {
  const { providerTimeoutMs, urlPolicy } = options;
  const raw: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const bounded = (trace: ProviderTrace): FetchLike =>
    providerFetch(raw, { trace, ...(providerTimeoutMs !== undefined ? { timeoutMs: providerTimeoutMs } : {}), ...(urlPolicy ? { urlPolicy } : {}) });
  return {
    raw,
    bounded,
    /** For `auth()`: the server, the resource metadata its last 401 named, the scope to ask for. */
    authOptions: (resourceMetadataUrl: string | undefined, scope: string | undefined, trace: ProviderTrace) => ({
      serverUrl: options.url,
      ...(resourceMetadataUrl ? { resourceMetadataUrl: new URL(resourceMetadataUrl) } : {}),
      ...(scope ? { scope } : {}),
      fetchFn: bounded(trace),
    }),
  };
}
