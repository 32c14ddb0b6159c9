import { withFields, type GatewayError } from '../core/index.js';
import { notAnMcpEndpoint } from './notAnMcpEndpoint.js';

/** Longest chain of redirects one request to a custom server follows. */
const MAX_REDIRECTS = 5;
/** Most characters of a redirect's path quoted in an error. */
const MAX_PATH_CHARS = 200;

/**
 * Follows a custom HTTP server's redirects only within its own origin, and only the kinds that keep
 * the request whole (307, 308: same method and body). fetch would follow any redirect, to any
 * host, with every header the admin configured (an API key): a server could send the gateway's
 * requests and its credentials to another origin, or to an address the URL policy refuses (a
 * cloud metadata service, the gateway itself), and read the answer back as MCP. Any other
 * redirect fails the request, naming where it pointed and what to do, as does a redirect that points
 * nowhere and a loop. `named`: the upstream as errors name it.
 */
export function sameOriginRedirects(inner: typeof fetch, named: string): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; ; hop += 1) {
      const response = await inner(hop === 0 ? input : url, withFields(init, { redirect: 'manual' as const }));
      if (response.status < 300 || response.status > 399) return response;
      await response.body?.cancel();
      const next = redirectTarget(named, response, url);
      if (!(next instanceof URL)) throw next;
      const refused = refusedRedirect(named, response.status, url, next);
      if (refused) throw refused;
      if (hop >= MAX_REDIRECTS) throw redirectLoop(named, response.status, url);
      url = next;
    }
  };
}

/**
 * The error of a redirect not followed, or undefined for one that is. Such a URL is typically a
 * sign-in portal's (an SSO) or a site's landing page: asking again is sent there again, so it fails
 * at once and for good (notAnMcpEndpoint.ts) instead of reading as a server that could not be
 * reached. Where it was sent is named by origin and path only: a query string or fragment may hold
 * a sign-in's tokens, and a URL's credentials are left out of its origin.
 */
function refusedRedirect(named: string, status: number, from: URL, to: URL): GatewayError | undefined {
  const path = to.pathname.length > MAX_PATH_CHARS ? `${to.pathname.slice(0, MAX_PATH_CHARS)}…` : to.pathname;
  const redirectedTo = `${to.origin}${path}`;
  if (to.origin !== from.origin) {
    return notAnMcpEndpoint(
      `${named}: its URL redirects to ${redirectedTo} (HTTP ${status}), and scigate follows redirects only within ${from.origin}: usually a sign-in or web page, ` +
        `not an MCP endpoint; set the server's URL to its MCP endpoint itself, or use OAuth (auth mode "oauth") if the server requires a login.`,
      { status, redirectedTo },
    );
  }
  if (status === 307 || status === 308) return undefined;
  return notAnMcpEndpoint(
    `${named}: the server answered HTTP ${status} (a redirect to ${path}) where an MCP endpoint answers; set the server's URL to ${redirectedTo}.`,
    { status, redirectedTo },
  );
}

/**
 * Where a redirect points, or why it points nowhere. A 3xx with no Location, or with one that is no
 * URL, is the server's (or a proxy's) fault, and asking again gets the same answer: it fails at once
 * and for good (notAnMcpEndpoint.ts), not as a server that could not be reached. The Location is not
 * quoted: it may carry a sign-in's tokens or credentials, and one that does not parse cannot be cut
 * to its origin and path.
 */
function redirectTarget(named: string, response: Response, from: URL): URL | GatewayError {
  const { status } = response;
  const location = response.headers.get('location');
  if (location === null) {
    return refusal(named, `the server answered HTTP ${status} without a Location (a redirect to nowhere) where an MCP endpoint answers`, { status, redirect: 'no_location' });
  }
  // Checked first: new URL's TypeError would carry the Location (its `input`) into the error's cause and the logs.
  if (!URL.canParse(location, from.href)) {
    return refusal(named, `the server answered HTTP ${status} with a Location that is not a valid URL, where an MCP endpoint answers`, { status, redirect: 'invalid_location' });
  }
  return new URL(location, from);
}

/**
 * More redirects than MAX_REDIRECTS, all within the origin: a loop (a path redirected to itself, or
 * two to each other) in practice, and asking again goes round it again, so it fails for good.
 */
function redirectLoop(named: string, status: number, at: URL): GatewayError {
  return refusal(named, `its URL redirects in a loop (more than ${MAX_REDIRECTS} redirects within ${at.origin}), so it reaches no MCP endpoint`, { status, redirect: 'loop' });
}

function refusal(named: string, what: string, details: Record<string, unknown>): GatewayError {
  return notAnMcpEndpoint(`${named}: ${what}; check the server's URL (set it to the MCP endpoint itself).`, details);
}
