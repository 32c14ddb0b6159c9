import { ProviderError } from './providerError.js';

/**
 * Parses a provider's JSON body. A body that does not parse (cut off under load, an HTML error
 * page behind a 200) is a retryable provider error, never an exception the caller has to guess at.
 */
export function parseJson(text: string, provider: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError('upstream_error', `${provider} sent malformed or truncated JSON (${reason.slice(0, 120)})`, {
      retryable: true,
    });
  }
}
