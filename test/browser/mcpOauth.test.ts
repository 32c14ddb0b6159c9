import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, allowEverything, type AdminApi } from '../fixtures/custom/adminApi.js';
import { PATIENT, SCREENSHOT_DIR, checkPage, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startProtectedMcp, type ProtectedMcp } from '../fixtures/oauth/protectedMcpServer.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Journey `mcp-oauth`: an administrator adds an OAuth-protected MCP server in the page, starts a
// login and cancels it, logs in through the loopback authorization server's consent page (the
// redirect comes back to the gateway's callback), sees the badge change live, the tools and a
// passing connection test, an agent's call refresh the expired token (the page shows the new
// expiry live), and clears the login again.
const ACCESS_TTL_SECONDS = 600;
let upstream: ProtectedMcp;
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;
let agent: Client;

beforeAll(async () => {
  upstream = await startProtectedMcp({ accessTtlSeconds: ACCESS_TTL_SECONDS, consent: true });
  gateway = await startTestGateway();
  api = adminApi(gateway);
  agent = await gateway.connect({ name: 'oauth-journey-agent' });
  // The journey is about the login, not approvals: this agent's calls run without waiting.
  await allowEverything(api, (await api.sessionOf('oauth-journey-agent')).id);
  browser = await launchAdminBrowser();
  admin = await browser.open(gateway);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
  await upstream?.close();
});

const card = () => admin.page.locator('article.server', { hasText: 'Protected' });
const authBadge = () => card().locator('.server-head .badge[title="Auth"]').innerText();
const serverView = async () => (await api.get('/api/mcp/servers')).body.servers[0];

/** Clicks "Log in" and answers the tab the page opens: the provider's consent page. */
async function startLogin(): Promise<Page> {
  const opened = admin.context.waitForEvent('page');
  await card().getByRole('button', { name: /^Log in/ }).click();
  const consent = await opened;
  await consent.getByRole('button', { name: 'Allow' }).waitFor();
  return consent;
}

describe('mcp-oauth', () => {
  it('adds a protected server, cancels a login, logs in through the consent page, sees a refresh, and clears the login', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Protected');
    await page.getByLabel('Transport').selectOption('http');
    await page.getByLabel('MCP endpoint URL').fill(upstream.mcpUrl);
    await page.getByLabel(/^Enabled/).check();
    await page.getByLabel('Mode').selectOption('oauth');
    await admin.check('oauth-server-form');
    await page.getByRole('button', { name: 'Add server', exact: true }).last().click();

    // Discovery meets the server's 401: the card says a login is needed, not that it is unreachable.
    await card().waitFor();
    await expect.poll(authBadge, PATIENT).toMatch(/login required/);
    await expect.poll(() => card().locator('.connection-message').innerText(), { timeout: 60_000 }).toMatch(/requires an OAuth login/);
    await card().getByText(/^Details:/).click();
    await expect(card().getByRole('button', { name: 'Cancel login' }).count()).resolves.toBe(0);
    await admin.check('oauth-login-required');

    // A started login waits on the provider's page; Cancel ends it, and its late approval is refused.
    const abandoned = await startLogin();
    await expect.poll(authBadge, PATIENT).toMatch(/login in progress/);
    await card().getByRole('link', { name: "Open the provider's login page" }).waitFor();
    await admin.check('oauth-authorizing');
    await card().getByRole('button', { name: 'Cancel login' }).click();
    await expect.poll(authBadge, PATIENT).toMatch(/login required/);
    await abandoned.getByRole('button', { name: 'Allow' }).click();
    await abandoned.getByRole('heading', { name: 'Login not completed' }).waitFor();
    await checkPage(abandoned, 'oauth-callback-refused');
    await abandoned.close();
    expect(upstream.provider.codeExchanges).toBe(0);
    await expect.poll(authBadge, PATIENT).toMatch(/login required/);
    await admin.check('oauth-cancelled');

    // The real login: consent in the provider's page, back to the gateway's callback; the admin
    // page (not reloaded: the marker survives) turns the badge to authorized from the live events.
    await page.evaluate(() => ((globalThis as any).journeyMarker = 'not reloaded'));
    const consent = await startLogin();
    // The provider's own page: a screenshot for the record; its accessibility is not the gateway's.
    await consent.screenshot({ path: join(SCREENSHOT_DIR, 'oauth-provider-consent.png') });
    await consent.getByRole('button', { name: 'Allow' }).click();
    await consent.getByRole('heading', { name: 'Login complete' }).waitFor();
    expect(consent.url().startsWith(`${gateway.url}/api/mcp/oauth/callback?`)).toBe(true);
    await expect(consent.locator('body').innerText()).resolves.toContain('logged in to Protected');
    await checkPage(consent, 'oauth-callback-complete');
    await consent.close();
    await expect.poll(authBadge, PATIENT).toMatch(/^Auth:\s*authorized$/);
    expect(await page.evaluate(() => (globalThis as any).journeyMarker)).toBe('not reloaded');
    expect(upstream.provider.codeExchanges).toBe(1);

    // The server's tools arrive (discovery with the token) and a connection test passes.
    await card().getByText(/^Details: 1 tool for agents$/).waitFor({ timeout: 60_000 });
    await expect(card().locator('ul.tools').innerText()).resolves.toContain('echo');
    await card().getByRole('button', { name: 'Test connection' }).click();
    await card().locator('.test-result').getByText(/passed/).waitFor({ timeout: 60_000 });
    const expiry = card().locator('.token-expiry time');
    const firstExpiry = await expiry.getAttribute('datetime');
    expect(firstExpiry).toBe((await serverView()).authExpiresAt);
    expect(Date.parse(firstExpiry!)).toBeGreaterThan(Date.now());
    await admin.check('oauth-authorized');

    // The provider lets the access token expire: an agent's next call gets one 401 and the gateway
    // refreshes; the page, which did nothing itself, shows the new expiry from the live event.
    const refreshes = upstream.provider.refreshes;
    upstream.provider.advance((ACCESS_TTL_SECONDS + 1) * 1000);
    const echo = (await serverView()).tools.find((t: any) => t.upstreamName === 'echo').name;
    const answer = (await agent.callTool({ name: echo, arguments: { message: 'after expiry' } })) as any;
    expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
    expect(upstream.provider.refreshes).toBe(refreshes + 1);
    await expect.poll(() => expiry.getAttribute('datetime'), PATIENT).not.toBe(firstExpiry);
    const renewed = await expiry.getAttribute('datetime');
    expect(Date.parse(renewed!)).toBeGreaterThan(Date.parse(firstExpiry!));
    expect(renewed).toBe((await serverView()).authExpiresAt);
    expect(await authBadge()).toMatch(/^Auth:\s*authorized$/);
    expect(upstream.provider.authorizations).toHaveLength(2);
    // The page's connection test uses the renewed token: no second refresh, no new login.
    const firstTest = (await serverView()).lastTest;
    await card().getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(async () => (await serverView()).lastTest.testedAt, { timeout: 60_000 }).not.toBe(firstTest.testedAt);
    expect((await serverView()).lastTest.ok).toBe(true);
    await card().locator('.test-result').getByText(/passed/).waitFor({ timeout: 60_000 });
    expect(upstream.provider.refreshes).toBe(refreshes + 1);
    await admin.check('oauth-refreshed');

    // At 390 px the Authorization block (expiry, actions) fits without sideways scrolling.
    const narrow = await browser.open(gateway, { width: 390 });
    const narrowCard = narrow.page.locator('article.server', { hasText: 'Protected' });
    await narrowCard.getByText(/^Details:/).click();
    await narrowCard.locator('.token-expiry time').waitFor();
    await narrow.check('oauth-refreshed');
    const overflow = await narrow.page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await narrow.context.close();

    // Clear asks first, then the saved login is gone: the badge is back to "login required".
    await card().getByRole('button', { name: 'Clear credentials' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.innerText()).resolves.toMatch(/Clear the stored OAuth credentials of Protected\?/);
    await admin.check('oauth-clear-confirm');
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(authBadge, PATIENT).toMatch(/login required/);
    await expect(expiry.count()).resolves.toBe(0);
    expect(await serverView()).toMatchObject({ authState: 'required', authExpiresAt: null });
    expect(await page.evaluate(() => (globalThis as any).journeyMarker)).toBe('not reloaded');
    await admin.check('oauth-cleared');
  });
});
