import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// What the page says when things go wrong or are done twice: a double-clicked import runs once, a
// connection test the gateway never answers ends with a failure, a tool's own error result is not
// called a success, and a VS Code file's bad entry is named as in the file.
const errorServer = fileURLToPath(new URL('../fixtures/servers/secretEchoServer.mjs', import.meta.url));
const on = useGatewayPage();

describe('the page when things go wrong', () => {
  it('imports once on a double click, and shows that import\'s success', async () => {
    const { page } = on.admin;
    const imports: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/mcp/servers/import')) imports.push(r.url()); });
    await page.getByRole('button', { name: 'Import JSON' }).click();
    await page.getByLabel('…or paste the JSON').fill(JSON.stringify({ mcpServers: { once: { command: 'node', args: ['server.js'] } } }));
    await page.getByRole('button', { name: 'Import', exact: true }).dblclick();
    const outcome = page.locator('.import-outcome');
    await outcome.getByText(/Imported 1 server, all disabled: once/).waitFor();
    await page.locator('article.server', { hasText: 'once' }).waitFor();
    expect(imports).toHaveLength(1);
    await expect(outcome.getByRole('alert').count()).resolves.toBe(0);
    expect((await on.api.get('/api/mcp/servers')).body.servers.map((s: any) => s.name)).toEqual(['once']);
  });

  it("runs a server card's action once on a double click: one connection test, one enable", async () => {
    const { page } = on.admin;
    const sent: string[] = [];
    page.on('request', (r) => { if (/\/api\/mcp\/servers\/[^/]+(\/test)?$/.test(r.url()) && r.method() !== 'GET') sent.push(`${r.method()} ${new URL(r.url()).pathname.split('/').at(-1)}`); });
    const card = page.locator('article.server', { hasText: 'once' });
    await card.getByRole('button', { name: 'Test connection' }).dblclick();
    await expect.poll(() => card.locator('.test-result').innerText(), PATIENT).toMatch(/Test:?\s*failed/);
    await card.getByRole('button', { name: 'Enable once' }).dblclick();
    await card.getByRole('button', { name: 'Disable once' }).waitFor(PATIENT);
    expect(sent.filter((r) => r === 'POST test')).toHaveLength(1);
    expect(sent.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
    await on.api.patch(`/api/mcp/servers/${(await on.api.get('/api/mcp/servers')).body.servers[0].id}`, { enabled: false });
  });

  it('names the bad entry of a VS Code file ({"servers": …}) as the file does, beside its other entries', async () => {
    const { page } = on.admin;
    await page.getByLabel('…or paste the JSON').fill(JSON.stringify({ servers: { vs1: { type: 'stdio' }, vs2: { type: 'stdio', command: 'node' } } }));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const outcome = page.locator('.import-outcome');
    await expect(outcome.getByRole('alert').innerText()).resolves.toContain('the entry "vs1" has an error');
    await expect(outcome.locator('li[data-entry="vs1"]').innerText()).resolves.toMatch(/command/);
    await expect(outcome.locator('li[data-entry="vs2"]').innerText()).resolves.toMatch(/not imported/);
    await expect(outcome.innerText()).resolves.not.toContain('mcpServers');
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('ends "Testing…" with the failure when the gateway does not answer', async () => {
    const { page } = on.admin;
    const card = page.locator('article.server', { hasText: 'once' });
    await page.route('**/api/mcp/servers**', (route) => route.abort('connectionrefused'));
    try {
      await card.getByRole('button', { name: 'Test connection' }).click();
      const box = card.locator('.test-result');
      await expect.poll(() => box.innerText(), PATIENT).toMatch(/did not complete: The gateway did not answer/);
      await expect(box.innerText()).resolves.not.toMatch(/Testing/);
    } finally {
      await page.unroute('**/api/mcp/servers**');
      // The browser logs the refused connections this test caused; any other problem still counts.
      const others = on.admin.problems.filter((p) => !/ERR_CONNECTION_REFUSED/.test(p));
      on.admin.problems.splice(0, on.admin.problems.length, ...others);
    }
  });

  it('says the tool reported an error when a call succeeded with an isError result', async () => {
    const { page } = on.admin;
    const created = await on.api.post('/api/mcp/servers', {
      name: 'complainer', transport: 'stdio', command: process.execPath, args: [errorServer], env: [{ key: 'ECHO_SECRET', value: 'not-a-real-secret' }], enabled: true,
    });
    expect(created.status).toBe(201);
    await on.gateway.connect({ name: 'inspecting-agent' });
    const session = await on.api.sessionOf('inspecting-agent');
    await on.api.patch(`/api/sessions/${session.id}`, { approvalMode: 'always_allow' });
    const card = page.locator('article.server', { hasText: 'complainer' });
    await card.getByText(/^Details: 1 tool for agents$/).waitFor({ timeout: 60_000 });
    await card.getByText(/^Details:/).click();
    await card.getByRole('button', { name: 'Open leak in the Inspector' }).click();
    await page.getByRole('heading', { name: 'Inspector' }).waitFor();
    await page.getByLabel('Session', { exact: true }).selectOption(session.id);
    await page.getByRole('button', { name: 'Run' }).click();
    const output = page.locator('.inspector-output');
    await output.locator('.outcome').waitFor({ timeout: 60_000 });
    await expect(output.locator('.outcome').innerText()).resolves.toMatch(/tool reported an error/);
    await expect(output.locator('.outcome').innerText()).resolves.not.toMatch(/success/);
    await expect(output.innerText()).resolves.toMatch(/The call itself succeeded, but the tool answered with an error result/);
    await on.admin.check('inspector-tool-error');
  });
});
