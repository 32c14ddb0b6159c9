import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { EVERYTHING_BIN } from '../fixtures/custom/everythingServer.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Journey `custom-mcp`: an administrator adds server-everything over stdio in the page, tests it,
// enables it, calls a tool from the Inspector and finds the call in the Session's audit.
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let agent: Client;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
  agent = await gateway.connect({ name: 'lab-agent', project: 'proteomics' });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

describe('the page itself', () => {
  it('is served at / with a strict CSP, no framing, and the same Host guard as the API', async () => {
    const page = await fetch(`${gateway.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    // No inline script and no third-party origin anywhere in the page.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${gateway.url}/js/main.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    // fetch cannot forge Host; supertest can (a DNS-rebinding page would arrive with its own name).
    const rebound = await request(gateway.url).get('/').set('host', 'attacker.example');
    expect(rebound.status).toBe(403);
    const foreignOrigin = await request(gateway.url).get('/js/main.js').set('origin', 'http://attacker.example');
    expect(foreignOrigin.status).toBe(403);
  });
});

describe('the page in the browser', () => {
  it('refuses a wrong token without keeping it, and works from the keyboard with a visible focus', async () => {
    const gate = await browser.open(gateway, { signIn: false });
    await gate.check('token-gate');
    await gate.signIn('not-the-token');
    await expect(gate.page.getByRole('alert').filter({ hasText: 'refused' }).innerText()).resolves.toMatch(/scigate token/);
    expect(await gate.page.evaluate(() => Object.keys((globalThis as any).sessionStorage))).toEqual([]);
    await gate.check('token-refused');
    await gate.context.close();

    const admin = await browser.open(gateway);
    const { page: signedIn } = admin;
    // Panels whose API this gateway has appear (they are probed, and hidden on a gateway without them).
    await signedIn.getByRole('button', { name: 'Downloads' }).waitFor();
    await signedIn.getByRole('button', { name: 'Extractions' }).waitFor();
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      await signedIn.keyboard.press('Tab');
      reached = await signedIn.evaluate(() => (globalThis as any).document.activeElement?.textContent === 'Add server');
    }
    expect(reached).toBe(true);
    const outline = await signedIn.evaluate(() => {
      const g = globalThis as any;
      return g.getComputedStyle(g.document.activeElement).outlineStyle;
    });
    expect(outline).not.toBe('none');
    await signedIn.keyboard.press('Enter');
    await expect.poll(() => signedIn.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('name')), PATIENT).toBe('name');
    await admin.check('keyboard-form');
    await signedIn.keyboard.press('Escape');
    await admin.context.close();
  });
});

describe('custom-mcp', () => {
  it('adds server-everything over stdio, tests, enables, calls echo from the Inspector and shows it in the audit', async () => {
    const session = await api.sessionOf('lab-agent');
    const admin = await browser.open(gateway);
    const { page } = admin;
    expect(page.url()).not.toContain(gateway.token);
    expect(await page.evaluate(() => Object.values((globalThis as any).sessionStorage as Record<string, string>))).toContain(gateway.token);
    await admin.check('servers-empty');

    await page.getByRole('button', { name: 'Add server' }).click();
    await page.getByLabel('Name', { exact: true }).fill('everything');
    await page.getByLabel('Command').fill(process.execPath);
    await page.getByLabel('Arguments (one per line)').fill(EVERYTHING_BIN);
    await page.getByLabel(/Tool timeout/).fill('60');
    await admin.check('server-form');
    await page.getByRole('button', { name: 'Add server', exact: true }).last().click();

    const card = page.locator('article.server', { hasText: 'everything' });
    await card.waitFor();
    await expect.poll(() => card.locator('.badge').allInnerTexts(), PATIENT).toEqual(expect.arrayContaining([expect.stringMatching(/disabled/)]));
    const [saved] = (await api.get('/api/mcp/servers')).body.servers;
    expect(saved).toMatchObject({ name: 'everything', transport: 'stdio', enabled: false, timeoutSeconds: 60, args: [EVERYTHING_BIN] });

    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/passed/).first().waitFor({ timeout: 60_000 });
    await admin.check('server-tested');
    // Said once, not as both the server's and its connection's state; and the test's tool count is
    // not mistaken for the tools agents get from a disabled server.
    expect((await card.locator('.badge').allInnerTexts()).filter((t) => /disabled/.test(t))).toHaveLength(1);
    await card.getByText(/^Details: 0 tools for agents$/).waitFor();

    await card.getByRole('button', { name: 'Enable everything' }).click();
    await card.getByRole('button', { name: 'Disable everything' }).waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await api.get(`/api/mcp/servers/${saved.id}`)).body.server.tools.length, { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => card.locator('.badge').allInnerTexts(), { timeout: 60_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/ready/), expect.stringMatching(/enabled/)]));

    await card.getByText(/^Details:/).click();
    await card.getByRole('button', { name: 'Open echo in the Inspector' }).click();
    await page.getByRole('heading', { name: 'Inspector' }).waitFor();
    await page.getByLabel('Session', { exact: true }).selectOption(session.id);
    await page.getByLabel(/^message/).fill('hello from the page');
    await admin.check('inspector-form');
    await page.getByRole('button', { name: 'Run' }).click();
    const output = page.locator('.inspector-output');
    await output.getByText('success').waitFor({ timeout: 60_000 });
    const invocationId = await output.getByLabel('Invocation id').inputValue();
    expect(invocationId).toMatch(/\S/);
    await expect(output.locator('.governance').innerText()).resolves.toMatch(/Attempts\s+1/);
    await expect(output.innerText()).resolves.toContain('hello from the page');
    await admin.check('inspector-result');

    // Raw JSON fallback and cancel: a long operation aborted from the page ends as `cancelled`.
    await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'trigger-long-running-operation' });
    await page.getByLabel('Edit the arguments as raw JSON').check();
    await page.getByLabel('Arguments (raw JSON)').fill('{"duration": 60, "steps": 4}');
    await page.getByRole('button', { name: 'Run' }).click();
    await output.getByText('Calling…').waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await output.getByText(/^Cancelled/).waitFor();
    await expect
      .poll(async () => (await api.get(`/api/sessions/${session.id}/invocations`)).body.invocations.find((i: any) => i.toolName.includes('long'))?.status, { timeout: 60_000 })
      .toBe('cancelled');
    await page.getByLabel('Edit the arguments as raw JSON').uncheck();

    await admin.tab('Sessions and audit');
    const sessionRow = page.locator('tr', { has: page.getByRole('button', { name: session.id.slice(0, 16) }) });
    await expect.poll(() => sessionRow.locator('td[data-label="Calls"]').innerText(), PATIENT).toBe('2');
    await expect(sessionRow.innerText()).resolves.toMatch(/proteomics[\s\S]*lab-agent[\s\S]*ask for dangerous/);
    await page.getByRole('button', { name: session.id.slice(0, 16) }).click();
    const row = page.locator(`tr[data-invocation-id="${invocationId}"]`);
    await row.waitFor();
    await expect(row.innerText()).resolves.toMatch(/inspector/);
    await page.getByLabel('Outcome', { exact: true }).selectOption('cancelled');
    await expect(page.locator('tr[data-invocation-id]').count()).resolves.toBe(1);
    await expect(page.locator('tr[data-invocation-id]').innerText()).resolves.toMatch(/long.running/);
    await page.getByLabel('Outcome', { exact: true }).selectOption('all');
    await row.getByRole('button').click();
    await expect(page.locator('.stored-arguments').innerText()).resolves.toContain('hello from the page');
    await expect(page.locator('figure.source-chart', { hasText: saved.id }).locator('figcaption').innerText()).resolves.toMatch(/2 calls, 1 error/);
    await admin.check('audit-detail');

    const stored = await api.get(`/api/sessions/${session.id}/invocations/${invocationId}`);
    expect(stored.body.invocation).toMatchObject({ origin: 'inspector', status: 'ok', sourceId: saved.id });
    void agent;

    const narrow = await browser.open(gateway, { width: 390 });
    await narrow.page.locator('article.server', { hasText: 'everything' }).waitFor();
    await narrow.check('servers-narrow');
    const overflow = () => narrow.page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await narrow.tab('Sessions and audit');
    await narrow.page.getByRole('button', { name: session.id.slice(0, 16) }).click();
    await narrow.page.locator(`tr[data-invocation-id="${invocationId}"]`).waitFor();
    await narrow.check('audit-narrow');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await narrow.tab('Inspector');
    await narrow.check('inspector-narrow');
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
