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
    throw tooLarge(provider, `a body of ${declared} bytes`);
  }
  try {
    return new TextDecoder('utf-8').decode(await readBounded(provider, response));
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (signal?.aborted) throw networkError(provider, error, signal);
    // The provider answered and then broke off: a truncated body is a bad response, not an unreachable host.
    throw new ProviderError('upstream_error', `${provider} sent a truncated body (the connection closed mid-response)`, { retryable: true });
  }
}

/**
 * Reads the body chunk by chunk and stops at the limit. A chunked body declares no length and a
 * gzip one declares only its compressed size, so reading it whole first would let one answer (an
 * endless stream, a small archive that inflates to gigabytes) take the process's memory.
 */
async function readBounded(provider: string, response: Response): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(provider, `more than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(provider: string, what: string): ProviderError {
  return new ProviderError('upstream_error', `${provider} sent ${what}; the limit is ${MAX_BODY_BYTES}: ask for fewer or smaller records`);
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
