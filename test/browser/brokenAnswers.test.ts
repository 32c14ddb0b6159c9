import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPage } from '../fixtures/browser.js';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';
import { startPartialAnswerProxy, type PartialAnswerProxy } from '../fixtures/partialAnswerProxy.js';

// An answer that stops after its headers: the browser's fetch() has resolved, and only reading the
// body fails. The Inspector must say what it says for a request that never got an answer — the
// gateway did not answer (with the next step), or "Cancelled." when the admin pressed Cancel —
// never the browser's own words ("network error", "signal is aborted without reason").
const echoServer = fileURLToPath(new URL('../fixtures/servers/secretEchoServer.mjs', import.meta.url));
const on = useGatewayPage();
let proxy: PartialAnswerProxy;
let admin: AdminPage;
let sessionId: string;

beforeAll(async () => {
  const created = await on.api.post('/api/mcp/servers', {
    name: 'echo', transport: 'stdio', command: process.execPath, args: [echoServer], env: [{ key: 'ECHO_SECRET', value: 'not-a-real-secret' }], enabled: true,
  });
  expect(created.status).toBe(201);
  await on.gateway.connect({ name: 'broken-answers-agent' });
  sessionId = (await on.api.sessionOf('broken-answers-agent')).id;
  await on.api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
  proxy = await startPartialAnswerProxy(on.gateway.url);
  admin = await on.browser.open({ url: proxy.url, token: on.gateway.token });
  // The Inspector lists only servers whose tools have been discovered.
  await admin.page.locator('article.server', { hasText: 'echo' }).getByText(/^Details: 1 tool for agents$/).waitFor(PATIENT);
  await admin.tab('Inspector');
});

afterAll(async () => {
  await admin?.context.close();
  await proxy?.close();
});

/** Starts an Inspector call whose answer is held after its headers; resolves once the browser has those headers. */
async function runHeldCall(): Promise<{ cut(): void }> {
  const { page } = admin;
  await page.getByLabel('Session', { exact: true }).selectOption(sessionId);
  await page.getByLabel(/^Server/).selectOption({ label: 'echo' });
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'leak' });
  const held = proxy.holdNext('/inspect');
  const headers = page.waitForResponse((r) => r.url().endsWith('/inspect'));
  await page.getByRole('button', { name: 'Run' }).click();
  await headers;
  await page.locator('.inspector-output').getByText('Calling…').waitFor();
  return held;
}

describe('an answer that breaks off after its headers', () => {
  it('says the gateway did not answer, with the next step, when the connection drops mid-answer', async () => {
    const held = await runHeldCall();
    held.cut();
    const alert = admin.page.locator('.inspector-output').getByRole('alert');
    await alert.waitFor(PATIENT);
    await expect(alert.innerText()).resolves.toBe('The gateway did not answer; check that it is still running, then retry.');
    // The browser logs the broken answer this test caused; any other problem still counts.
    const others = admin.problems.filter((p) => !/net::ERR_CONTENT_LENGTH_MISMATCH/.test(p));
    admin.problems.splice(0, admin.problems.length, ...others);
    await admin.check('inspector-answer-broken');
  });

  it('says "Cancelled." when Cancel is pressed after the answer has started', async () => {
    const held = await runHeldCall();
    await admin.page.getByRole('button', { name: 'Cancel' }).click();
    const alert = admin.page.locator('.inspector-output').getByRole('alert');
    await alert.waitFor(PATIENT);
    await expect(alert.innerText()).resolves.toMatch(/^Cancelled\. The call was aborted/);
    held.cut();
    expect(admin.problems).toEqual([]);
  });
});
