import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// The Inspector from the keyboard: a call run with Enter on "Run", or cancelled with Enter on
// "Cancel", leaves focus on Run, so the next call is a key press away, not a walk from the top
// of the page; and a second Enter while a call runs starts no second call.
const echoServer = fileURLToPath(new URL('../fixtures/servers/secretEchoServer.mjs', import.meta.url));
const hostileServer = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));
const on = useGatewayPage();
let sessionId: string;

beforeAll(async () => {
  const servers = [
    { name: 'keyed', args: [echoServer], env: [{ key: 'ECHO_SECRET', value: 'not-a-real-secret' }] },
    { name: 'stuck', args: [hostileServer] },
  ];
  for (const server of servers) {
    expect((await on.api.post('/api/mcp/servers', { transport: 'stdio', command: process.execPath, enabled: true, ...server })).status).toBe(201);
  }
  await on.gateway.connect({ name: 'keyboard-agent' });
  sessionId = (await on.api.sessionOf('keyboard-agent')).id;
  await on.api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
});

const focused = (page: Page) => page.evaluate(() => {
  const active = (globalThis as any).document.activeElement;
  return { tag: active?.tagName ?? null, text: active?.textContent ?? '' };
});

/** Chooses the Session, the server and the tool in the Inspector. */
async function choose(page: Page, server: string, tool: string): Promise<void> {
  await page.locator('article.server', { hasText: server }).getByText(/^Details: \d+ tools? for agents$/).waitFor(PATIENT);
  await on.admin.tab('Inspector');
  await page.getByLabel('Session', { exact: true }).selectOption(sessionId);
  await page.getByLabel(/^Server/).selectOption({ label: server });
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: tool });
}

describe('the Inspector from the keyboard', () => {
  it('keeps focus on Run through calls started with Enter', async () => {
    const { page } = on.admin;
    await choose(page, 'keyed', 'leak');
    const invocationId = () => page.evaluate(() => (globalThis as any).document.querySelector('.inspector-output input')?.value ?? null);
    // Twice: the second call starts from where the first one left the focus.
    await page.getByRole('button', { name: 'Run' }).focus();
    for (let i = 0; i < 2; i++) {
      const before = await invocationId();
      await page.keyboard.press('Enter');
      await expect.poll(invocationId, PATIENT).not.toBe(before);
      await expect.poll(() => focused(page), PATIENT).toEqual({ tag: 'BUTTON', text: 'Run' });
    }
    await on.admin.check('inspector-keyboard-run');
  });

  it('runs one call for a second Enter while it runs, and puts focus back on Run after Enter on Cancel', async () => {
    const { page } = on.admin;
    const calls: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/inspect')) calls.push(r.url()); });
    await on.admin.tab('Custom servers');
    await choose(page, 'stuck', 'hang');
    await page.getByRole('button', { name: 'Run' }).focus();
    await page.keyboard.press('Enter');
    const output = page.locator('.inspector-output');
    await output.getByText('Calling…').waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toEqual({ tag: 'BUTTON', text: 'Cancel' });
    await page.keyboard.press('Enter');
    await output.getByText(/^Cancelled\./).waitFor();
    await expect.poll(() => focused(page), PATIENT).toEqual({ tag: 'BUTTON', text: 'Run' });
    expect(calls).toHaveLength(1);
  });
});
