import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../gateway/core/index.js';
import { htmlPageFetch } from '../../../gateway/upstream/htmlPageAnswers.js';
import { isNotAnMcpEndpoint, notAnMcpEndpoint } from '../../../gateway/upstream/notAnMcpEndpoint.js';

/** A fetch answering every request with `status`, `contentType` and a small page. */
function answering(status: number, contentType: string): typeof fetch {
  return async () => new Response('<html><title>Sign in</title></html>', { status, headers: { 'content-type': contentType } });
}

const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const post = (body: string): RequestInit => ({ method: 'POST', body });

describe('htmlPageFetch', () => {
  it('fails a streamable HTTP request answered 200 with a page, naming the content type and what to fix', async () => {
    const heard: GatewayError[] = [];
    const fetcher = htmlPageFetch(answering(200, 'text/html; charset=utf-8'), { named: 'up', transport: 'http', onStreamRefused: (e) => heard.push(e) });
    const error = await fetcher('http://upstream.test/', post(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'upstream_error', retryable: false, details: { contentType: 'text/html; charset=utf-8' } });
    expect((error as GatewayError).message).toBe(
      "up: its URL answered with an HTML page (text/html; charset=utf-8), not an MCP endpoint; check the server's URL (an MCP endpoint's URL often ends in /mcp or /sse).",
    );
    expect(isNotAnMcpEndpoint(error as GatewayError)).toBe(true);
    // Thrown, not reported: the transport hands a POST's error to its request as it is.
    expect(heard).toEqual([]);
  });

  it("reports and fails an SSE stream's GET answered with a page (the SSE transport keeps only the words)", async () => {
    const heard: GatewayError[] = [];
    const fetcher = htmlPageFetch(answering(200, 'application/xhtml+xml'), { named: 'up', transport: 'sse', onStreamRefused: (e) => heard.push(e) });
    const error = await fetcher('http://upstream.test/sse', { method: 'GET' }).catch((e: unknown) => e);
    expect(heard).toEqual([error]);
    expect(isNotAnMcpEndpoint(heard[0]!)).toBe(true);
  });

  it('passes what the SDK reads without complaint or that is not a page: a notification, a 202, a streamable GET, an SSE POST, JSON', async () => {
    const onStreamRefused = () => {
      throw new Error('no page expected');
    };
    const cases: Array<[number, string, 'http' | 'sse', RequestInit]> = [
      [200, 'text/html', 'http', post(notification)],
      [202, 'text/html; charset=utf-8', 'http', post(request)],
      [200, 'text/html', 'http', { method: 'GET' }],
      [200, 'text/html', 'sse', post(request)],
      [200, 'application/json', 'http', post(request)],
      [200, 'text/htmlx', 'http', post(request)],
    ];
    for (const [status, type, transport, init] of cases) {
      const response = await htmlPageFetch(answering(status, type), { named: 'up', transport, onStreamRefused })('http://upstream.test/', init);
      expect(response.status).toBe(status);
      expect(await response.text()).toContain('Sign in');
    }
  });

  it("reports an SSE stream's GET refused further in as no MCP endpoint (a redirect not followed), and nothing else", async () => {
    const heard: GatewayError[] = [];
    const refused = notAnMcpEndpoint('up: its URL redirects to http://sso.test/login', { status: 302 });
    const failing = (error: unknown): typeof fetch => async () => Promise.reject(error);
    const sse = (inner: typeof fetch) => htmlPageFetch(inner, { named: 'up', transport: 'sse', onStreamRefused: (e) => heard.push(e) });
    expect(await sse(failing(refused))('http://upstream.test/sse', { method: 'GET' }).catch((e: unknown) => e)).toBe(refused);
    expect(heard).toEqual([refused]);
    // A refused legacy POST, an unreachable server, and streamable HTTP: their errors reach their request as they are.
    await sse(failing(refused))('http://upstream.test/messages', post(request)).catch(() => {});
    await sse(failing(new TypeError('fetch failed')))('http://upstream.test/sse', { method: 'GET' }).catch(() => {});
    await htmlPageFetch(failing(refused), { named: 'up', transport: 'http', onStreamRefused: (e) => heard.push(e) })('http://upstream.test/', post(request)).catch(() => {});
    expect(heard).toEqual([refused]);
  });

  it('tells a page answer from other upstream errors', () => {
    expect(isNotAnMcpEndpoint(new GatewayError('upstream_error', 'answered with an MCP error', { details: { rpcCode: -32000 } }))).toBe(false);
    expect(isNotAnMcpEndpoint({ code: 'upstream_unavailable', details: { reason: 'not_an_mcp_endpoint' } })).toBe(false);
    expect(isNotAnMcpEndpoint({})).toBe(false);
    expect(isNotAnMcpEndpoint(new TypeError('fetch failed'))).toBe(false);
    expect(isNotAnMcpEndpoint(undefined)).toBe(false);
  });
});
