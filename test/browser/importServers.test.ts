import { describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../fixtures/custom/everythingServer.js';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// Journey `import`: a Claude Desktop style file with one bad entry shows that entry's error and
// imports nothing; the corrected file imports every entry, disabled.
const on = useGatewayPage();

const document = (bad: boolean) => ({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING_BIN], env: { TOKEN: 'imported-secret' } },
    'remote tools': bad ? { type: 'http' } : { type: 'http', url: 'https://tools.example.org/mcp' },
  },
});

describe('import', () => {
  it('names the bad entry, imports nothing, then imports the corrected file disabled', async () => {
    const { page } = on.admin;
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await page.getByLabel('JSON file').setInputFiles({ name: 'claude_desktop_config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(document(true))) });
    await expect.poll(() => page.getByLabel('…or paste the JSON').inputValue(), PATIENT).toContain('remote tools');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.locator('.import-outcome');
    await outcome.getByRole('alert').waitFor();
    await expect(outcome.getByRole('alert').innerText()).resolves.toContain('the entry "remote tools" has an error');
    await expect(outcome.locator('li[data-entry="remote tools"]').innerText()).resolves.toMatch(/url: a http server needs a url/);
    await expect(outcome.locator('li[data-entry="everything"]').innerText()).resolves.toMatch(/not imported/);
    await on.admin.check('import-error');
    expect((await on.api.get('/api/mcp/servers')).body.servers).toEqual([]);

    await page.getByLabel('…or paste the JSON').fill('{"mcpServers": ');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(outcome.getByRole('alert').innerText()).resolves.toMatch(/not valid JSON/);

    await page.getByLabel('…or paste the JSON').fill(JSON.stringify(document(false)));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await outcome.getByText(/Imported 2 servers, all disabled/).waitFor();
    await page.locator('article.server', { hasText: 'remote tools' }).waitFor();
    await expect(page.locator('article.server').count()).resolves.toBe(2);
    await on.admin.check('import-done');
    const servers = (await on.api.get('/api/mcp/servers')).body.servers;
    expect(servers.map((s: any) => [s.name, s.enabled])).toEqual([['everything', false], ['remote tools', false]]);
  });

  it('a name given twice in the pasted text: the last entry is imported and the page says the other one was not', async () => {
    const { page } = on.admin;
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await page.getByLabel('…or paste the JSON').fill('{"mcpServers": {"lab": {"command": "first"}, "lab": {"command": "second"}}}');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.locator('.import-outcome');
    await outcome.getByText(/Imported 1 server, all disabled: lab/).waitFor();
    await expect(outcome.locator('.warning').innerText()).resolves.toContain('"lab" appears 2 times in "mcpServers": only the last entry was imported');
    const servers = (await on.api.get('/api/mcp/servers')).body.servers;
    expect(servers.filter((s: any) => s.name === 'lab').map((s: any) => s.command)).toEqual(['second']);
  });

  it('from the keyboard: focus stays on Import through an import, and Close gives it back to "Import JSON"', async () => {
    const { page } = on.admin;
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? null);
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await page.getByLabel('…or paste the JSON').fill('{"mcpServers": {"keyboard": {"command": "node"}}}');
    await page.getByRole('button', { name: 'Import', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.import-outcome').getByText(/Imported 1 server, all disabled: keyboard/).waitFor();
    await expect.poll(focused, PATIENT).toBe('Import');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Close');
    await page.keyboard.press('Enter');
    await page.getByLabel('…or paste the JSON').waitFor({ state: 'detached' });
    await expect.poll(focused, PATIENT).toBe('Import JSON');
  });
});
