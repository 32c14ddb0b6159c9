import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// A form submitted twice in a row (a double click, Enter then a click) sends its request once:
// the token is checked once and the page starts once (one live event stream).
const on = useGatewayPage();

describe('forms submitted twice', () => {
  it('checks a token once and starts one live event stream when Connect is double-clicked, after a refused one', async () => {
    const admin = await on.browser.open(on.gateway, { signIn: false });
    const { page } = admin;
    const checks: Route[] = [];
    const streams: string[] = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/events') streams.push(r.url()); });
    // A refused token leaves the form ready for the next one.
    await admin.signIn('not-the-token');
    await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
    // The token check is held until both clicks are in, so the second cannot come after the first's answer.
    await page.route('**/api/sessions', (route) => { checks.push(route); });
    await page.getByLabel('Token', { exact: true }).fill(on.gateway.token);
    await page.getByRole('button', { name: 'Connect' }).dblclick();
    await expect.poll(() => checks.length, PATIENT).toBeGreaterThan(0);
    const held = checks.length;
    for (const route of checks) await route.continue();
    await page.unroute('**/api/sessions');
    await expect.poll(() => page.locator('#live-state').getAttribute('data-state'), PATIENT).toBe('live');
    await page.getByText(/No custom servers yet/).waitFor();
    expect(held).toBe(1);
    expect(checks).toHaveLength(1);
    expect(streams).toHaveLength(1);
    await admin.check('signed-in-once');
    await admin.context.close();
  });
});
