import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { CustomServerFileStore } from '../../storage/index.js';
import { adminApi, type AdminApi } from '../fixtures/custom/adminApi.js';
import { everythingStdio } from '../fixtures/custom/everythingServer.js';
import { PATIENT, launchAdminBrowser, type AdminBrowser, type AdminPage } from '../fixtures/browser.js';
import { startTestGateway, type TestGateway } from '../fixtures/testGateway.js';

// Journey `mcp-secret-edit` (seed §5.3 done in the page): unchanged values preserved, a rename
// without a value blocked inline, re-entry, restoring the original name, explicit clear — each
// checked against the decrypted stored config, which the API itself never shows.
let gateway: TestGateway;
let api: AdminApi;
let browser: AdminBrowser;
let admin: AdminPage;
let serverId: string;

/** The server's config as saved on disk, decrypted (the API never shows these values). */
async function storedEnv() {
  const saved = (await (await CustomServerFileStore.open(gateway.dataDir)).load()).find((s) => s.id === serverId);
  if (saved?.transport !== 'stdio') throw new Error(`no saved stdio server ${serverId}`);
  return saved;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  api = adminApi(gateway);
  browser = await launchAdminBrowser();
  const created = await api.post('/api/mcp/servers', {
    name: 'vault', ...everythingStdio(), timeoutSeconds: 30,
    env: [{ key: 'API_KEY', value: 'key-one' }, { key: 'REGION', value: 'eu-west' }, { key: 'DEBUG', value: 'yes' }],
  });
  expect(created.status).toBe(201);
  serverId = created.body.server.id;
  admin = await browser.open(gateway);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.dispose();
});

/** Opens the edit form of the server and returns its env rows by saved name order. */
async function edit(): Promise<{ form: Locator; row: (n: number) => { key: Locator; value: Locator; root: Locator }; save: () => Promise<void> }> {
  const { page } = admin;
  await page.locator('article.server', { hasText: 'vault' }).getByRole('button', { name: 'Edit' }).click();
  const form = page.locator('form.editor');
  await form.waitFor();
  const row = (n: number) => {
    const root = form.locator('.secret-row').nth(n);
    return { root, key: root.locator('input.secret-key'), value: root.locator('input.secret-value') };
  };
  return { form, row, save: () => form.getByRole('button', { name: 'Save changes' }).click() };
}

async function savedAndClosed(form: Locator): Promise<void> {
  await form.waitFor({ state: 'detached' });
}

describe('mcp-secret-edit', () => {
  it('keeps unchanged secrets when other fields change (the env list is not sent at all)', async () => {
    const { form, row, save } = await edit();
    await expect(row(0).key.inputValue()).resolves.toBe('API_KEY');
    await expect(row(0).value.inputValue()).resolves.toBe('');
    await expect(row(0).root.innerText()).resolves.toContain('Saved value kept');
    await admin.check('secret-edit-form');
    await form.getByLabel(/Tool timeout/).fill('45');
    const patch = admin.page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/api/mcp/servers/${serverId}`));
    await save();
    expect((await patch).postDataJSON()).toEqual({ timeoutSeconds: 45 });
    await savedAndClosed(form);
    await expect.poll(async () => (await storedEnv()).timeoutSeconds, PATIENT).toBe(45);
    expect((await storedEnv()).env).toEqual({ API_KEY: 'key-one', REGION: 'eu-west', DEBUG: 'yes' });
  });

  it('blocks a renamed key without a value with an inline error, and saves once a new value is entered', async () => {
    const { form, row, save } = await edit();
    await row(0).key.fill('SERVICE_KEY');
    const error = row(0).root.getByRole('alert');
    await expect(error.innerText()).resolves.toMatch(/Renamed from "API_KEY": enter a new value/);
    await expect(row(0).key.getAttribute('aria-invalid')).resolves.toBe('true');
    await admin.check('secret-edit-rename-blocked');
    await save();
    await expect(form.getByRole('alert').filter({ hasText: 'Fix the highlighted entries' }).innerText()).resolves.toMatch(/Fix the highlighted/);
    expect((await storedEnv()).env).toEqual({ API_KEY: 'key-one', REGION: 'eu-west', DEBUG: 'yes' });

    await row(0).value.fill('key-two');
    await expect(error.count()).resolves.toBe(0);
    const patch = admin.page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/api/mcp/servers/${serverId}`));
    await save();
    // The rows left alone are sent with value: null (kept), never an empty string.
    expect((await patch).postDataJSON().env).toEqual([
      { key: 'SERVICE_KEY', value: 'key-two', originalKey: 'API_KEY' },
      { key: 'REGION', value: null, originalKey: 'REGION' },
      { key: 'DEBUG', value: null, originalKey: 'DEBUG' },
    ]);
    await savedAndClosed(form);
    await expect.poll(async () => (await storedEnv()).env, PATIENT).toEqual({ SERVICE_KEY: 'key-two', REGION: 'eu-west', DEBUG: 'yes' });
  });

  it('keeps a typed value out of the page\'s HTML when rows are redrawn', async () => {
    const { form, row } = await edit();
    await row(0).value.fill('typed-secret-value');
    await form.getByRole('button', { name: 'Add environment variable' }).click();
    await expect(row(0).value.inputValue()).resolves.toBe('typed-secret-value');
    await expect(admin.page.content()).resolves.not.toContain('typed-secret-value');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a swap of two saved names needs both values again', async () => {
    const { form, row } = await edit();
    await row(1).key.fill('DEBUG');
    await row(2).key.fill('REGION');
    await expect(row(1).root.innerText()).resolves.toMatch(/Renamed from "REGION"/);
    await expect(row(2).root.innerText()).resolves.toMatch(/Renamed from "DEBUG"/);
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect((await storedEnv()).env).toEqual({ SERVICE_KEY: 'key-two', REGION: 'eu-west', DEBUG: 'yes' });
  });

  it('restoring the original name restores the stored value', async () => {
    const { form, row, save } = await edit();
    await row(1).key.fill('ZONE');
    await expect(row(1).root.innerText()).resolves.toMatch(/Renamed from "REGION"/);
    await row(1).key.fill('REGION');
    await expect(row(1).root.getByRole('alert').count()).resolves.toBe(0);
    await expect(row(1).root.innerText()).resolves.toContain('Saved value kept');
    await save();
    await savedAndClosed(form);
    const stored = await storedEnv();
    expect(stored.env).toEqual({ SERVICE_KEY: 'key-two', REGION: 'eu-west', DEBUG: 'yes' });
  });

  it('clears a value only when asked to, and removes a deleted row', async () => {
    const { form, row, save } = await edit();
    await row(1).root.getByRole('button', { name: 'Clear value' }).click();
    await expect(row(1).root.getByRole('button', { name: 'Keep value' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(row(1).root.innerText()).resolves.toMatch(/will be cleared/);
    await row(2).root.getByRole('button', { name: 'Remove DEBUG' }).click();
    await admin.check('secret-edit-clear');
    await save();
    await savedAndClosed(form);
    await expect.poll(async () => (await storedEnv()).env, PATIENT).toEqual({ SERVICE_KEY: 'key-two', REGION: '' });
    // The API never carried a value back to the page.
    const listed = await api.get(`/api/mcp/servers/${serverId}`);
    expect(listed.body.server.env).toEqual([{ key: 'SERVICE_KEY', value: null }, { key: 'REGION', value: null }]);
  });
});
