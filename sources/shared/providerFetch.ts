import type { SourceDeps } from './sourceDefinition.js';
import { parseRetryAfterMs } from '../../catalog/index.js';
import { ProviderError, classifyHttpStatus } from './providerError.js';

/** Largest provider body a source reads; more is a provider error, not a memory problem. */
const MAX_BODY_BYTES = 20_000_000;

export interface ProviderResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface ProviderFetchOptions {
  /** Provider name used in error messages. */
  provider: string;
  signal?: AbortSignal;
  accept?: string;
  /** Statuses the caller handles itself (e.g. RCSB's 204, Reactome's 404 for no hits). */
  passStatuses?: number[];
  /** Extracts the provider's reason from an error body (e.g. arXiv's error entry). */
  describeError?: (body: string) => string;
}

/** GETs a provider URL and classifies every failure into a ProviderError. */
export async function providerFetch(
  deps: SourceDeps,
  url: string,
  options: ProviderFetchOptions,
): Promise<ProviderResponse> {
  let response: Response;
  try {
    response = await deps.fetch(url, {
      headers: { 'user-agent': deps.userAgent, accept: options.accept ?? '*/*' },
      redirect: 'follow',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw networkError(options.provider, error, options.signal);
  }
  const body = await readBody(options.provider, response, options.signal);
  if (response.ok || options.passStatuses?.includes(response.status)) {
    return { status: response.status, headers: response.headers, body };
  }
  const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), deps.now().getTime());
  const detail = options.describeError ? options.describeError(body) : '';
  throw classifyHttpStatus(options.provider, response.status, detail, retryAfterMs);
}

async function readBody(provider: string, response: Response, signal?: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw new ProviderError('upstream_error', `${provider} sent a body of ${declared} bytes; the limit is ${MAX_BODY_BYTES}`);
  }
  try {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) {
      throw new ProviderError('upstream_error', `${provider} sent more than ${MAX_BODY_BYTES} bytes`);
    }
    return new TextDecoder('utf-8').decode(bytes);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (signal?.aborted) throw networkError(provider, error, signal);
    // The provider answered and then broke off: a truncated body is a bad response, not an unreachable host.
    throw new ProviderError('upstream_error', `${provider} sent a truncated body (the connection closed mid-response)`, { retryable: true });
  }
}

function networkError(provider: string, error: unknown, signal?: AbortSignal): ProviderError {
  if (signal?.aborted) return new ProviderError('cancelled', `The request to ${provider} was cancelled`);
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError') {
    return new ProviderError('upstream_timeout', `${provider} did not answer in time`, { retryable: true });
  }
  return new ProviderError('upstream_unavailable', `${provider} could not be reached or the connection broke`, {
    retryable: true,
  });
}
