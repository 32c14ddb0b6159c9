/** Longest chain of redirects one request to a custom server follows. */
const MAX_REDIRECTS = 5;

/**
 * Follows a custom HTTP server's redirects only within its own origin, and only the kinds that keep
 * the request whole (307, 308: same method and body). fetch would follow any redirect, to any
 * host, with every header the admin configured (an API key): a server could send the gateway's
 * requests and its credentials to another origin, or to an address the URL policy refuses (a
 * cloud metadata service, the gateway itself), and read the answer back as MCP. Any other
 * redirect fails the request, naming where it pointed and what to do.
 */
export function sameOriginRedirects(inner: typeof fetch): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; ; hop += 1) {
      const response = await inner(hop === 0 ? input : url, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        throw new Error(`the server redirected to another origin (${next.origin}); the gateway follows redirects only within ${url.origin}. Set the server's URL to the endpoint itself.`);
      }
      if (response.status !== 307 && response.status !== 308) {
        throw new Error(`the server answered HTTP ${response.status} (a redirect to ${next.pathname}) where an MCP endpoint answers; set the server's URL to ${next.href}.`);
      }
      if (hop + 1 >= MAX_REDIRECTS) throw new Error(`the server redirected more than ${MAX_REDIRECTS} times; set its URL to the endpoint itself.`);
      url = next;
    }
  };
}
