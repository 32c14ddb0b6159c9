import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../fixtures/custom/adminApi.js';
import { startHeaderRecordingServer, type HeaderRecordingServer } from '../fixtures/custom/headerRecordingServer.js';
import { pingingAgent } from '../fixtures/custom/pingingAgent.js';
import { serveHtmlPage, type HtmlPageServer } from '../fixtures/servers/htmlPageServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

const named = String.raw`"Portal" \(custom-[0-9a-f]{12}\)`;
const pageAnswer = new RegExp(
  `^${named}: its URL answered with an HTML page \\(text/html; charset=utf-8\\), not an MCP endpoint; ` +
    String.raw`check the server's URL \(an MCP endpoint's URL often ends in /mcp or /sse\)\.$`,
);

/**
 * A custom server whose URL is a web page's (a site, a login portal, a reverse proxy's default
 * page), answering 200 with text/html. The SDK's transports refuse such an answer with "Unexpected
 * content type" or "Invalid content type", which read as a server that "could not be reached"
 * (upstream_unavailable, retryable): the admin checked the network and the server was retried in
 * the background until it was disabled, when its URL was what needed fixing.
 */
describe('a custom server whose URL answers with an HTML page', () => {
  let gateway: TestGateway | undefined;
  let page: HtmlPageServer | undefined;
  let backend: HeaderRecordingServer | undefined;
  afterEach(async () => {
    await gateway?.dispose();
    await page?.close();
    await backend?.close();
  });

  it.each(['http', 'sse'] as const)('over %s: discovery and the connection test say so at once; it is neither retried nor disabled', async (transport) => {
    page = await serveHtmlPage({ path: transport === 'sse' ? '/sse' : '/mcp' });
    gateway = await startTestGateway();
    const api = adminApi(gateway);

    const created = await api.post('/api/mcp/servers', { name: 'Portal', transport, url: page.url, enabled: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body.server.connection).toMatchObject({ state: 'error', message: expect.stringMatching(pageAnswer) });
    expect(created.body.server.discovery).toMatchObject({ code: 'upstream_error', details: { contentType: 'text/html; charset=utf-8' } });

    const tested = await api.post(`/api/mcp/servers/${created.body.server.id}/test`);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.checks.find((c: any) => c.name === 'connect')).toMatchObject({ ok: false, message: expect.stringMatching(pageAnswer) });
    expect(JSON.stringify(tested.body)).not.toMatch(/could not be reached/);

    // One page for the discovery, one for the test: no discovery was retried in the background,
    // and no failure was counted towards disabling the server.
    expect(page.pagesServed).toBe(2);
    const after = (await api.get(`/api/mcp/servers/${created.body.server.id}`)).body.server;
    expect(after).toMatchObject({ enabled: true, connection: { state: 'error', message: expect.stringMatching(pageAnswer) } });
  }, 60_000);

  it('a tool call, once the URL starts answering with a page, fails at once as upstream_error saying what to do; it is not retried', async () => {
    backend = await startHeaderRecordingServer();
    page = await serveHtmlPage({ passTo: backend.url });
    gateway = await startTestGateway();
    const { agent, tool } = await pingingAgent(gateway, page.url, 'agent-html');

    page.showPage();
    const answer = (await agent.callTool({ name: tool, arguments: {} })) as any;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ code: 'upstream_error', retryable: false, details: { contentType: 'text/html; charset=utf-8' } });
    expect(answer.structuredContent.error.message).toMatch(pageAnswer);
    expect(page.pagesServed).toBe(1);
  }, 60_000);
});
