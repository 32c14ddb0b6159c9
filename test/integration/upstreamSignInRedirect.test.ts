import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { captureLogger } from '../fixtures/custom/captureLogger.js';
import { startHeaderRecordingServer, type HeaderRecordingServer } from '../fixtures/custom/headerRecordingServer.js';
import { pingingAgent } from '../fixtures/custom/pingingAgent.js';
import { serveHtmlPage, type HtmlPageServer } from '../fixtures/servers/htmlPageServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const named = String.raw`"Portal" \(custom-[0-9a-f]{12}\)`;
/** What the admin and the agent are told: where the URL was sent (origin and path only) and what to do. */
const redirectAnswer = (portal: string, status: number) =>
  new RegExp(
    `^${named}: its URL redirects to ${escaped(portal)}/sso \\(HTTP ${status}\\), and scigate follows redirects only within http://127\\.0\\.0\\.1:\\d+: ` +
      String.raw`usually a sign-in or web page, not an MCP endpoint; set the server's URL to its MCP endpoint itself, or use OAuth \(auth mode "oauth"\) if the server requires a login\.$`,
  );

/** The query string, fragment and credentials a sign-in redirect carries: none may reach an error, a status or a log. */
const SECRETS = ['sso-user', 'sso-password', 'session-token-0f3a', 'state-9c1e'];
const signInLocation = (portal: string) => portal.replace('//', '//sso-user:sso-password@') + '/sso?session=session-token-0f3a#state-9c1e';

/**
 * A custom server whose URL redirects to another origin: a sign-in portal (an SSO) or a site's
 * landing page. The gateway does not follow it (the admin's headers would go along), and used to
 * report it as "could not be reached" (upstream_unavailable, retryable): discovery was retried in
 * the background until the server was disabled, and the admin checked the network when the URL (or
 * a missing login) was what needed fixing.
 */
describe('a custom server whose URL redirects to another origin', () => {
  let gateway: TestGateway | undefined;
  let front: HtmlPageServer | undefined;
  let portal: HtmlPageServer | undefined;
  let backend: HeaderRecordingServer | undefined;
  let log = captureLogger();
  afterEach(async () => {
    await gateway?.dispose();
    await front?.close();
    await portal?.close();
    await backend?.close();
    log = captureLogger();
  });

  it.each([
    ['http', 302],
    ['http', 307],
    ['sse', 302],
  ] as const)('over %s, answered %i: discovery and the connection test name where it was sent, at once; it is neither retried nor disabled', async (transport, status) => {
    portal = await serveHtmlPage();
    const portalOrigin = new URL(portal.url).origin;
    front = await serveHtmlPage({ path: transport === 'sse' ? '/sse' : '/mcp', redirectTo: { status, location: signInLocation(portalOrigin) } });
    gateway = await startTestGateway({}, undefined, { log });
    const api = adminApi(gateway);

    const created = await api.post('/api/mcp/servers', { name: 'Portal', transport, url: front.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body.server.connection).toMatchObject({ state: 'error', message: expect.stringMatching(redirectAnswer(portalOrigin, status)) });
    expect(created.body.server.discovery).toMatchObject({
      code: 'upstream_error',
      details: { reason: 'not_an_mcp_endpoint', status, redirectedTo: `${portalOrigin}/sso` },
    });

    const tested = await api.post(`/api/mcp/servers/${created.body.server.id}/test`);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({ ok: false, message: expect.stringMatching(redirectAnswer(portalOrigin, status)) });
    expect(JSON.stringify(tested.body)).not.toMatch(/could not be reached/);

    // One redirect for the discovery, one for the test: no discovery was retried in the background,
    // no failure was counted towards disabling the server, and no request went to the portal.
    expect(front.pagesServed).toBe(2);
    expect(portal.pagesServed).toBe(0);
    const after = (await api.get(`/api/mcp/servers/${created.body.server.id}`)).body.server;
    expect(after).toMatchObject({ enabled: true, connection: { state: 'error', message: expect.stringMatching(redirectAnswer(portalOrigin, status)) } });
    const told = JSON.stringify([created.body, tested.body, after]) + log.lines.join('\n');
    for (const secret of SECRETS) expect(told).not.toContain(secret);
  }, 60_000);

  it('a tool call, once the URL starts redirecting to a sign-in page, fails at once as upstream_error saying where and what to do; it is not retried', async () => {
    portal = await serveHtmlPage();
    const portalOrigin = new URL(portal.url).origin;
    backend = await startHeaderRecordingServer();
    front = await serveHtmlPage({ passTo: backend.url, redirectTo: { status: 302, location: signInLocation(portalOrigin) } });
    gateway = await startTestGateway({}, undefined, { log });
    const { agent, tool } = await pingingAgent(gateway, front.url, 'agent-redirect');

    front.showPage();
    const answer = (await agent.callTool({ name: tool, arguments: {} })) as any;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: false, details: { reason: 'not_an_mcp_endpoint', redirectedTo: `${portalOrigin}/sso` } });
    expect(answer.structuredContent.error.message).toMatch(redirectAnswer(portalOrigin, 302));
    expect(front.pagesServed).toBe(1);
    expect(portal.pagesServed).toBe(0);
    for (const secret of SECRETS) expect(JSON.stringify(answer) + log.lines.join('\n')).not.toContain(secret);
  }, 60_000);
});

/** What the admin and the agent are told of a redirect that leads nowhere, by case: what happened and what to do. */
const brokenRedirectAnswer = {
  loop: () => String.raw`its URL redirects in a loop \(more than 5 redirects within http://127\.0\.0\.1:\d+\), so it reaches no MCP endpoint`,
  no_location: (status: number) => String.raw`the server answered HTTP ${status} without a Location \(a redirect to nowhere\) where an MCP endpoint answers`,
  invalid_location: (status: number) => String.raw`the server answered HTTP ${status} with a Location that is not a valid URL, where an MCP endpoint answers`,
};
const brokenRedirect = (kind: keyof typeof brokenRedirectAnswer, status: number) =>
  new RegExp(`^${named}: ${brokenRedirectAnswer[kind](status)}; check the server's URL \\(set it to the MCP endpoint itself\\)\\.$`);

/**
 * A custom server whose URL redirects in a loop, with no Location, or to something that is no URL.
 * Each is the URL's or the server's fault, yet read as "could not be reached" (a plain error,
 * upstream_unavailable, retryable): discovery was retried until the server was disabled, and the
 * admin checked the network instead of the URL.
 */
describe('a custom server whose URL redirects nowhere', () => {
  let gateway: TestGateway | undefined;
  let front: HtmlPageServer | undefined;
  let log = captureLogger();
  afterEach(async () => {
    await gateway?.dispose();
    await front?.close();
    log = captureLogger();
  });

  it.each([
    // A redirect to its own path: followed (307/308 within the origin) until the limit, 6 requests an attempt.
    ['http', 'loop', { status: 307, location: '/mcp' }, 6],
    ['sse', 'loop', { status: 308, location: '/sse' }, 6],
    ['http', 'no_location', { status: 302 }, 1],
    ['sse', 'no_location', { status: 307 }, 1],
    ['http', 'invalid_location', { status: 302, location: 'http://sso-user:sso-password@bad host/sso?session=session-token-0f3a#state-9c1e' }, 1],
  ] as const)('over %s, a redirect %s: discovery and the connection test say so, at once; it is neither retried nor disabled', async (transport, kind, redirectTo, perAttempt) => {
    front = await serveHtmlPage({ path: transport === 'sse' ? '/sse' : '/mcp', redirectTo });
    gateway = await startTestGateway({}, undefined, { log });
    const api = adminApi(gateway);
    const answer = brokenRedirect(kind, redirectTo.status);

    const created = await api.post('/api/mcp/servers', { name: 'Portal', transport, url: front.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body.server.connection).toMatchObject({ state: 'error', message: expect.stringMatching(answer) });
    expect(created.body.server.discovery).toMatchObject({ code: 'upstream_error', details: { reason: 'not_an_mcp_endpoint', status: redirectTo.status, redirect: kind } });

    const tested = await api.post(`/api/mcp/servers/${created.body.server.id}/test`);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({ ok: false, message: expect.stringMatching(answer) });
    expect(JSON.stringify(tested.body)).not.toMatch(/could not be reached/);

    // One attempt for the discovery, one for the test: nothing retried in the background, no failure counted towards disabling it.
    expect(front.pagesServed).toBe(2 * perAttempt);
    const after = (await api.get(`/api/mcp/servers/${created.body.server.id}`)).body.server;
    expect(after).toMatchObject({ enabled: true, connection: { state: 'error', message: expect.stringMatching(answer) } });
    const told = JSON.stringify([created.body, tested.body, after]) + log.lines.join('\n');
    for (const secret of [...SECRETS, 'bad host']) expect(told).not.toContain(secret);
  }, 60_000);
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
