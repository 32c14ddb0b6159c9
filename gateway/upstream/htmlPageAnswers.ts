import type { GatewayError } from '../core/index.js';
import { isNotAnMcpEndpoint, notAnMcpEndpoint } from './notAnMcpEndpoint.js';

export interface HtmlPageFetchOptions {
  /** The upstream as errors name it. */
  named: string;
  /** Which transport's requests these are: it decides which answers are read as MCP (see readsAnswer). */
  transport: 'http' | 'sse';
  /**
   * Told of an SSE stream that reached no MCP endpoint: answered with a page here, or refused further
   * in (a redirect the gateway does not follow). The SSE transport reports a failed GET only in words
   * ("SSE error: …"), so the caller keeps this error to report instead; closing the connection here
   * would stop that report, and the connect would wait on it for ever.
   */
  onStreamRefused: (error: GatewayError) => void;
}

/**
 * A URL that is a web page's (a site, a login portal, a reverse proxy's default page) answers 200
 * with HTML. The SDK's transports refuse that as "Unexpected content type" or "Invalid content
 * type", which read as a server that could not be reached, retryable: the admin checked the network
 * and the server was retried until it was disabled. Here such an answer, where the transport reads
 * an MCP answer, fails its request at once, naming what came back and what to fix. Anything else
 * passes as it came.
 */
export function htmlPageFetch(inner: typeof fetch, options: HtmlPageFetchOptions): typeof fetch {
  const { named, transport, onStreamRefused } = options;
  const refuse = (error: unknown, init: RequestInit | undefined): never => {
    if (transport === 'sse' && isNotAnMcpEndpoint(error) && readsAnswer(transport, init)) onStreamRefused(error as GatewayError);
    throw error;
  };
  return async (input, init) => {
    const response = await inner(input, init).catch((error: unknown) => refuse(error, init));
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !/^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i.test(type) || !readsAnswer(transport, init)) return response;
    await response.body?.cancel().catch(() => {});
    const contentType = type.trim().slice(0, 100);
    return refuse(notAnMcpEndpoint(
      `${named}: its URL answered with an HTML page (${contentType}), not an MCP endpoint; check the server's URL (an MCP endpoint's URL often ends in /mcp or /sse).`,
      { contentType },
    ), init);
  };
}

/**
 * The requests whose answer the SDK reads as MCP, and refuses when it is a page: over SSE the GET of
 * the event stream; over streamable HTTP a POST carrying a request (a notification's answer is
 * dropped unread, and its optional GET stream may be a server's landing page beside a working POST).
 */
function readsAnswer(transport: 'http' | 'sse', init: RequestInit | undefined): boolean {
  const method = (init?.method ?? 'GET').toUpperCase();
  if (transport === 'sse') return method === 'GET';
  if (method !== 'POST' || typeof init?.body !== 'string') return false;
  // Parsed only when the answer is a page already: no ordinary call pays for reading its body again.
  try {
    const parsed: unknown = JSON.parse(init.body);
    return (Array.isArray(parsed) ? parsed : [parsed]).some((m: unknown) => typeof m === 'object' && m !== null && 'method' in m && 'id' in m);
  } catch {
    return false;
  }
}
