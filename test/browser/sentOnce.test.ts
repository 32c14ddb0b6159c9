import type { Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// A form submitted twice in a row (a double click, Enter then a click) sends its request once:
// the token is checked once and the page starts once (one live event stream), and a server is
// added or saved once (a second save would restart the server again, or be refused invisibly).
const on = useGatewayPage();

/** Records the requests whose method and path match, from now on. */
function record(requests: Request[], method: string, path: RegExp): (r: Request) => void {
  const listener = (r: Request) => {
    if (r.method() === method && path.test(new URL(r.url()).pathname)) requests.push(r);
  };
  on.admin.page.on('request', listener);
  return listener;
}

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

  it('adds a server once when "Add server" in the form is double-clicked', async () => {
    const { page } = on.admin;
    const posts: Request[] = [];
    const listener = record(posts, 'POST', /^\/api\/mcp\/servers$/);
    try {
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.locator('form.editor');
      await form.getByLabel('Name').fill('twice');
      await form.getByLabel('Command').fill('node');
      await form.getByRole('button', { name: 'Add server' }).dblclick();
      await page.locator('article.server', { hasText: 'twice' }).waitFor();
      await form.waitFor({ state: 'detached' });
      expect(posts).toHaveLength(1);
      expect((await on.api.get('/api/mcp/servers')).body.servers.map((s: any) => s.name)).toEqual(['twice']);
      // A refused save leaves the form ready to send the corrected one.
      await page.getByRole('button', { name: 'Add server' }).click();
      await form.getByLabel('Name').fill('TWICE');
      await form.getByLabel('Command').fill('node');
      await form.getByRole('button', { name: 'Add server' }).click();
      await form.getByRole('alert').filter({ hasText: 'already used' }).waitFor();
      await form.getByLabel('Name').fill('other');
      await form.getByRole('button', { name: 'Add server' }).click();
      await page.locator('article.server', { hasText: 'other' }).waitFor();
      expect(posts).toHaveLength(3);
    } finally {
      page.off('request', listener);
    }
  });

  it('saves an edit once when "Save changes" is double-clicked: one PATCH, one restart', async () => {
    const { page } = on.admin;
    const patches: Request[] = [];
    const listener = record(patches, 'PATCH', /^\/api\/mcp\/servers\/[^/]+$/);
    try {
      await page.locator('article.server', { hasText: 'twice' }).getByRole('button', { name: 'Edit' }).click();
      const form = page.locator('form.editor');
      await form.getByLabel(/Tool timeout/).fill('45');
      await form.getByRole('button', { name: 'Save changes' }).dblclick();
      await form.waitFor({ state: 'detached' });
      await expect.poll(async () => (await on.api.get('/api/mcp/servers')).body.servers.find((s: any) => s.name === 'twice').timeoutSeconds, PATIENT).toBe(45);
      await page.getByText('Saved twice.').waitFor();
      expect(patches).toHaveLength(1);
    } finally {
      page.off('request', listener);
    }
  });
});
