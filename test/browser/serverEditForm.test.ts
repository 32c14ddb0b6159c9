import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// The edit form saves what the admin changed in it and nothing else: arguments it merely showed
// come back byte for byte, and a change made meanwhile from the server's card is not undone.
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;

const ARGS = ['-e', "console.log('a')\nconsole.log('b')", '', '  spaced  ', '--x'];

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
  const imported = await api.post('/api/mcp/servers/import', { mcpServers: { argsy: { command: 'node', args: ARGS } } });
  expect(imported.status).toBe(201);
  const created = await api.post('/api/mcp/servers', { name: 'toggly', ...everythingStdio(), timeoutSeconds: 30 });
  expect(created.status).toBe(201);
  admin = await browser.open(gateway);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

const serverNamed = async (name: string) => (await api.get('/api/mcp/servers')).body.servers.find((s: any) => s.name === name);

/** Opens the edit form of the named server. */
async function edit(name: string): Promise<Locator> {
  await admin.page.locator('article.server', { hasText: name }).getByRole('button', { name: 'Edit' }).click();
  const form = admin.page.locator('form.editor');
  await form.waitFor();
  return form;
}

/** Saves the form and answers the PATCH body it sent. */
async function save(form: Locator): Promise<any> {
  const patch = admin.page.waitForRequest((r) => r.method() === 'PATCH' && /\/api\/mcp\/servers\/[^/]+$/.test(r.url()));
  await form.getByRole('button', { name: 'Save changes' }).click();
  const body = (await patch).postDataJSON();
  await form.waitFor({ state: 'detached' });
  return body;
}

describe('the server edit form', () => {
  it('sends only the changed timeout: arguments with line breaks, empty and spaced ones stay exactly as saved', async () => {
    const form = await edit('argsy');
    // Lines cannot carry an argument with a line break: the form shows the list as JSON.
    await expect(form.getByLabel('Arguments (one per line)').inputValue()).resolves.toBe(JSON.stringify(ARGS));
    await form.getByLabel(/Tool timeout/).fill('45');
    expect(await save(form)).toEqual({ timeoutSeconds: 45 });
    await expect.poll(async () => (await serverNamed('argsy')).timeoutSeconds, PATIENT).toBe(45);
    expect((await serverNamed('argsy')).args).toEqual(ARGS);
  });

  it('saves edited arguments exactly: one per line with spaces and empty lines kept, or a JSON array', async () => {
    let form = await edit('argsy');
    const args = form.getByLabel('Arguments (one per line)');
    await args.fill('  spaced  \n\n--x\n');
    expect((await save(form)).args).toEqual(['  spaced  ', '', '--x']);
    await expect.poll(async () => (await serverNamed('argsy')).args, PATIENT).toEqual(['  spaced  ', '', '--x']);

    form = await edit('argsy');
    await expect(args.inputValue()).resolves.toBe('  spaced  \n\n--x');
    await args.fill('["-e", "a()\\nb()", ""');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form.getByRole('alert').innerText()).resolves.toMatch(/read as a JSON array, which does not parse/);
    await expect(admin.page.evaluate(() => (globalThis as any).document.activeElement?.name)).resolves.toBe('args');
    await args.fill('["-e", "a()\\nb()", ""]');
    expect((await save(form)).args).toEqual(['-e', 'a()\nb()', '']);
    await expect.poll(async () => (await serverNamed('argsy')).args, PATIENT).toEqual(['-e', 'a()\nb()', '']);
  });

  it('does not undo an Enable made from the card while the form was open', async () => {
    const form = await edit('toggly');
    const card = admin.page.locator('article.server', { hasText: 'toggly' });
    await card.getByRole('button', { name: 'Enable toggly' }).click();
    await card.getByRole('button', { name: 'Disable toggly' }).waitFor();
    await form.getByLabel(/Tool timeout/).fill('50');
    const sent = await save(form);
    await expect.poll(async () => (await serverNamed('toggly')).timeoutSeconds, PATIENT).toBe(50);
    expect((await serverNamed('toggly')).enabled).toBe(true);
    expect(sent).toEqual({ timeoutSeconds: 50 });
  });
});
