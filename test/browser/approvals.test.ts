import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Journey `approvals`: an agent's custom tool call waits for a human; its card appears in the open
// page without a reload; "Allow same type" releases it and a second waiting call of the same type.
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;
let agent: Client;
let echoTool: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
  const created = await api.post('/api/mcp/servers', { name: 'everything', ...everythingStdio(), enabled: true });
  expect(created.status).toBe(201);
  agent = await gateway.connect({ name: 'careful-agent', project: 'structures' });
  echoTool = await vi.waitFor(
    async () => {
      // Custom tools are named from the server's display name.
      const name = (await agent.listTools()).tools.map((t) => t.name).find((n) => n === 'mcp__everything__echo');
      if (!name) throw new Error('echo not discovered yet');
      return name;
    },
    { timeout: 60_000, interval: 200 },
  );
  admin = await browser.open(gateway);
  await admin.tab(/Approvals/);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

describe('approvals', () => {
  it('shows waiting calls live and releases both with "Allow same type"; the Grant is listed and revocable', async () => {
    const { page } = admin;
    const session = await api.sessionOf('careful-agent');
    const block = page.locator(`section[data-session-id="${session.id}"]`);
    await block.waitFor();
    await expect(block.getByLabel(/Always allow/).isChecked()).resolves.toBe(false);
    const reloads: string[] = [];
    page.on('framenavigated', (frame) => reloads.push(frame.url()));

    const first = agent.callTool({ name: echoTool, arguments: { message: 'first' } });
    const firstCard = block.locator('article.request', { hasText: '"first"' });
    await firstCard.waitFor({ timeout: 60_000 });
    const second = agent.callTool({ name: echoTool, arguments: { message: 'second' } });
    await block.locator('article.request', { hasText: '"second"' }).waitFor({ timeout: 60_000 });
    await expect(page.getByRole('button', { name: /Approvals/ }).innerText()).resolves.toMatch(/2 waiting/);
    await admin.check('approvals-waiting');
    const narrow = await browser.open(gateway, { width: 390 });
    await narrow.tab(/Approvals/);
    await expect.poll(() => narrow.page.locator(`section[data-session-id="${session.id}"] article.request`).count(), PATIENT).toBe(2);
    await narrow.check('approvals-waiting');
    await narrow.context.close();

    await firstCard.getByRole('button', { name: 'Allow same type' }).click();
    const [one, two] = await Promise.all([first, second]);
    expect(JSON.stringify(one.content)).toContain('Echo: first');
    expect(JSON.stringify(two.content)).toContain('Echo: second');
    await block.getByText('Nothing waiting.').waitFor();
    const grants = block.locator('ul.grants li');
    // A Grant names the tool by its stable id (mcp__custom-<12 hex>__echo_<hash>), whatever agents see.
    await expect(grants.innerText()).resolves.toMatch(/tool\.call on mcp__custom-[0-9a-f]{12}__echo/);
    await admin.check('approvals-granted');
    expect(reloads).toEqual([]);

    // A double click revokes once.
    const revokes: string[] = [];
    page.on('request', (r) => { if (r.method() === 'DELETE' && r.url().includes('/api/grants/')) revokes.push(r.url()); });
    await grants.getByRole('button', { name: /Revoke/ }).dblclick();
    await block.getByText('No Grants.').waitFor();
    expect(revokes).toHaveLength(1);
    expect((await api.get(`/api/sessions/${session.id}/grants`)).body.grants.every((g: any) => g.revokedAt !== null)).toBe(true);

    await block.getByLabel(/Always allow/).check();
    await expect.poll(async () => (await api.get(`/api/sessions/${session.id}`)).body.session.approvalMode, PATIENT).toBe('always_allow');
    const free = await agent.callTool({ name: echoTool, arguments: { message: 'no question asked' } });
    expect(JSON.stringify(free.content)).toContain('no question asked');
    await admin.check('approvals-always-allow');
  });

  it('Deny refuses the waiting call; Allow once runs one call and leaves no Grant', async () => {
    const { page } = admin;
    const session = await api.sessionOf('careful-agent');
    await api.patch(`/api/sessions/${session.id}`, { approvalMode: 'ask_for_dangerous' });
    const block = page.locator(`section[data-session-id="${session.id}"]`);
    await expect.poll(() => block.getByLabel(/Always allow/).isChecked(), PATIENT).toBe(false);
    const call = agent.callTool({ name: echoTool, arguments: { message: 'refused' } });
    const card = block.locator('article.request', { hasText: '"refused"' });
    await card.getByRole('button', { name: 'Deny' }).click({ timeout: 60_000 });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.structuredContent)).toContain('permission_denied');

    // A double click decides once: no second decision is sent, so no "already decided" error hides the first.
    const decisions: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/decision')) decisions.push(r.url()); });
    const toasts = page.locator('#toasts .toast.bad');
    const badBefore = await toasts.count();
    const once = agent.callTool({ name: echoTool, arguments: { message: 'just this once' } });
    await block.locator('article.request', { hasText: '"just this once"' }).getByRole('button', { name: 'Allow once' }).dblclick({ timeout: 60_000 });
    expect(JSON.stringify((await once).content)).toContain('Echo: just this once');
    await block.getByText('Nothing waiting.').waitFor();
    expect(decisions).toHaveLength(1);
    await expect(toasts.count()).resolves.toBe(badBefore);
    // The decided card is gone; keyboard focus stays in its Session's block, not back at the page's start.
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.closest('section.session-approvals')?.dataset.sessionId ?? null), PATIENT)
      .toBe(session.id);
    await expect(block.getByText('No Grants.').count()).resolves.toBe(1);
  });
});
