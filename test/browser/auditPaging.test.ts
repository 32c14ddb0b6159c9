import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// A long Session in the audit view: its call count is the whole count (the API answers in pages),
// and its invocation list says how many it holds and loads older ones on request, never hiding them.
const CALLS = 1100;
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;
let agent: Client;
let sessionId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
  expect((await api.post('/api/mcp/servers', { name: 'everything', ...everythingStdio(), enabled: true })).status).toBe(201);
  agent = await gateway.connect({ name: 'busy-agent', project: 'long-run' });
  sessionId = (await api.sessionOf('busy-agent')).id;
  await api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
  await vi.waitFor(async () => {
    if (!(await agent.listTools()).tools.some((t) => t.name === 'mcp__everything__echo')) throw new Error('echo not discovered yet');
  }, { timeout: 60_000, interval: 200 });
  // A few calls at a time: every one is an audit row, whatever its outcome.
  for (let i = 0; i < CALLS; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, CALLS - i) }, (_, j) => agent.callTool({ name: 'mcp__everything__echo', arguments: { message: `call ${i + j}` } })));
  }
  admin = await browser.open(gateway);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

describe('the audit view of a long Session', () => {
  it('counts every call, and lists the newest 500 with a way to load the older ones', async () => {
    const { page } = admin;
    await admin.tab('Sessions and audit');
    const sessionRow = page.locator('tr', { has: page.getByRole('button', { name: sessionId.slice(0, 16) }) });
    await expect.poll(() => sessionRow.locator('td[data-label="Calls"]').innerText(), PATIENT).toBe(String(CALLS));

    await page.getByRole('button', { name: sessionId.slice(0, 16) }).click();
    const rows = page.locator('tr[data-invocation-id]');
    await expect.poll(() => rows.count(), PATIENT).toBe(500);
    const coverage = page.locator('#invocations-coverage');
    await expect(coverage.innerText()).resolves.toMatch(/newest 500 invocations; older ones are not loaded yet, and the filters cover the loaded ones only/);
    await admin.check('audit-partly-loaded');

    const older = page.getByRole('button', { name: /Load older invocations/ });
    await older.click();
    await expect.poll(() => rows.count(), PATIENT).toBe(1000);
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe('invocations-more');
    await older.click();
    await expect.poll(() => rows.count(), PATIENT).toBe(CALLS);
    await expect(coverage.innerText()).resolves.toBe(`All ${CALLS} invocations of this Session are loaded.`);
    await expect(older.count()).resolves.toBe(0);
    const ids = await rows.evaluateAll((trs) => trs.map((tr: any) => tr.dataset.invocationId));
    expect(new Set(ids).size).toBe(CALLS);
  });
});
