import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../gateway/core/index.js';
import { isNotAnMcpEndpoint } from '../../../gateway/upstream/notAnMcpEndpoint.js';
import { sameOriginRedirects } from '../../../gateway/upstream/sameOriginRedirects.js';

/** A fetch answering each URL as `routes` says (a redirect's Location as given), recording the URLs asked for. */
function routed(routes: Record<string, [number, string?]>): typeof fetch & { asked: string[] } {
  const asked: string[] = [];
  const fetcher = async (input: Request | string | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    asked.push(url);
    const [status, location] = routes[url] ?? [200];
    return new Response(status === 200 ? '{}' : null, { status, headers: location === undefined ? {} : { location } });
  };
  return Object.assign(fetcher, { asked });
}

const signIn = 'https://sso-user:sso-password@login.example.org/sso?session=tok-0f3a#state-9c1e';

describe('sameOriginRedirects', () => {
  it.each([301, 302, 303, 307, 308])('refuses %i to another origin at once, naming its origin and path only and what to do', async (status) => {
    const inner = routed({ 'https://mcp.example.org/mcp': [status, signIn] });
    const error = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/mcp', { method: 'POST' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'upstream_error', retryable: false, details: { status, redirectedTo: 'https://login.example.org/sso' } });
    expect(isNotAnMcpEndpoint(error)).toBe(true);
    expect((error as GatewayError).message).toBe(
      `up: its URL redirects to https://login.example.org/sso (HTTP ${status}), and scigate follows redirects only within https://mcp.example.org: ` +
        `usually a sign-in or web page, not an MCP endpoint; set the server's URL to its MCP endpoint itself, or use OAuth (auth mode "oauth") if the server requires a login.`,
    );
    expect(JSON.stringify({ message: (error as GatewayError).message, wire: (error as GatewayError).toJSON() })).not.toMatch(/sso-user|sso-password|tok-0f3a|state-9c1e/);
    expect(inner.asked).toEqual(['https://mcp.example.org/mcp']);
  });

  it('refuses a redirect within the origin that would not keep the request whole, naming the URL to set without its query', async () => {
    const inner = routed({ 'https://mcp.example.org/': [302, '/mcp?ticket=tok-0f3a'] });
    const error = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/', { method: 'POST' }).catch((e: unknown) => e);
    expect(isNotAnMcpEndpoint(error)).toBe(true);
    expect((error as GatewayError).message).toBe("up: the server answered HTTP 302 (a redirect to /mcp) where an MCP endpoint answers; set the server's URL to https://mcp.example.org/mcp.");
  });

  it('follows 307 and 308 within the origin; a loop stays an ordinary failure', async () => {
    const inner = routed({ 'https://mcp.example.org/old': [307, '/moved'], 'https://mcp.example.org/moved': [308, '/mcp'], 'https://mcp.example.org/loop': [307, '/loop'] });
    expect((await sameOriginRedirects(inner, 'up')('https://mcp.example.org/old', { method: 'POST' })).status).toBe(200);
    expect(inner.asked.slice(-1)).toEqual(['https://mcp.example.org/mcp']);
    const loop = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/loop').catch((e: unknown) => e);
    expect(isNotAnMcpEndpoint(loop)).toBe(false);
    expect((loop as Error).message).toBe('the server redirected more than 5 times; set its URL to the endpoint itself.');
  });
});
