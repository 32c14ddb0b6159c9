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

  it('follows 307 and 308 within the origin, up to 5 of them', async () => {
    const inner = routed({ 'https://mcp.example.org/old': [307, '/moved'], 'https://mcp.example.org/moved': [308, '/mcp'] });
    expect((await sameOriginRedirects(inner, 'up')('https://mcp.example.org/old', { method: 'POST' })).status).toBe(200);
    expect(inner.asked.slice(-1)).toEqual(['https://mcp.example.org/mcp']);
    const chain = routed(Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`https://mcp.example.org/${n}`, [307, n === 5 ? '/mcp' : `/${n + 1}`]])));
    expect((await sameOriginRedirects(chain, 'up')('https://mcp.example.org/1', { method: 'POST' })).status).toBe(200);
    expect(chain.asked).toHaveLength(6);
  });

  // A redirect loop, a redirect that says not where, or one to no URL at all: the server's or its
  // URL's fault, so asking again gets the same answer. Used to fail as a plain Error, read as
  // "could not be reached" (retryable): retried until the server was disabled.
  it('refuses a loop at once after 5 redirects followed, naming the origin and what to do', async () => {
    const inner = routed({ 'https://mcp.example.org/loop?ticket=tok-0f3a': [307, '/loop?ticket=tok-0f3a'] });
    const loop = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/loop?ticket=tok-0f3a', { method: 'POST' }).catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(GatewayError);
    expect(loop).toMatchObject({ code: 'upstream_error', retryable: false, details: { status: 307, redirect: 'loop' } });
    expect(isNotAnMcpEndpoint(loop)).toBe(true);
    expect((loop as GatewayError).message).toBe(
      "up: its URL redirects in a loop (more than 5 redirects within https://mcp.example.org), so it reaches no MCP endpoint; check the server's URL (set it to the MCP endpoint itself).",
    );
    expect(inner.asked).toHaveLength(6);
  });

  it.each([300, 301, 302, 303, 304, 307, 308])('refuses HTTP %i without a Location at once, saying so and what to do', async (status) => {
    const inner = routed({ 'https://mcp.example.org/mcp': [status] });
    const error = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/mcp', { method: 'POST' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'upstream_error', retryable: false, details: { status, redirect: 'no_location' } });
    expect(isNotAnMcpEndpoint(error)).toBe(true);
    expect((error as GatewayError).message).toBe(
      `up: the server answered HTTP ${status} without a Location (a redirect to nowhere) where an MCP endpoint answers; check the server's URL (set it to the MCP endpoint itself).`,
    );
    expect(inner.asked).toEqual(['https://mcp.example.org/mcp']);
  });

  it.each(['https://sso-user:sso-password@bad host/sso?session=tok-0f3a#state-9c1e', 'http://[::1/sso?session=tok-0f3a', 'https://login.example.org:99999/?session=tok-0f3a'])(
    'refuses a Location that is no valid URL at once, without quoting it (%s)',
    async (location) => {
      const inner = routed({ 'https://mcp.example.org/mcp': [302, location] });
      const error = await sameOriginRedirects(inner, 'up')('https://mcp.example.org/mcp', { method: 'POST' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ code: 'upstream_error', retryable: false, details: { status: 302, redirect: 'invalid_location' } });
      expect(isNotAnMcpEndpoint(error)).toBe(true);
      expect((error as GatewayError).message).toBe(
        "up: the server answered HTTP 302 with a Location that is not a valid URL, where an MCP endpoint answers; check the server's URL (set it to the MCP endpoint itself).",
      );
      expect(JSON.stringify({ wire: (error as GatewayError).toJSON(), cause: String((error as GatewayError).cause) })).not.toMatch(/sso-user|sso-password|tok-0f3a|state-9c1e|bad host/);
      expect(inner.asked).toEqual(['https://mcp.example.org/mcp']);
    },
  );
});
