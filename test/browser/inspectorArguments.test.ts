import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// The Inspector sends the arguments exactly as the admin entered them, also for properties named
// like the ones a JavaScript object treats specially (`__proto__`, `constructor`): a custom MCP
// server may declare any property name, and its tool must be callable from the page.
const echoServer = fileURLToPath(new URL('../fixtures/servers/argumentEchoServer.mjs', import.meta.url));
const on = useGatewayPage();
let sessionId: string;

beforeAll(async () => {
  expect((await on.api.post('/api/mcp/servers', { name: 'echo', transport: 'stdio', command: process.execPath, args: [echoServer], enabled: true })).status).toBe(201);
  await on.gateway.connect({ name: 'arguments-agent' });
  sessionId = (await on.api.sessionOf('arguments-agent')).id;
  await on.api.patch(`/api/sessions/${sessionId}`, { approvalMode: 'always_allow' });
});

/** Chooses the Session and the echo tool in the Inspector. */
async function chooseEcho(page: Page): Promise<void> {
  await on.admin.tab('Custom servers');
  await page.locator('article.server', { hasText: 'echo' }).getByText(/^Details: 1 tool for agents$/).waitFor(PATIENT);
  await on.admin.tab('Inspector');
  await page.getByLabel('Session', { exact: true }).selectOption(sessionId);
  await page.getByLabel(/^Server/).selectOption({ label: 'echo' });
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'echo_arguments' });
}

const SENT = '{"__proto__":"p","constructor":"c","note":"n"}';
/** The result text as the server wrote it (the page shows it inside JSON, its quotes escaped). */
const echoed = (shown: string) => shown.replaceAll('\\"', '"');

describe('the Inspector\'s arguments', () => {
  it('sends a __proto__ argument written as raw JSON', async () => {
    const { page } = on.admin;
    await chooseEcho(page);
    await page.getByLabel('Edit the arguments as raw JSON').check();
    await page.getByLabel('Arguments (raw JSON)').fill(SENT);
    await page.getByRole('button', { name: 'Run' }).click();
    const output = page.locator('.inspector-output');
    await output.getByText('success').waitFor(PATIENT);
    expect(echoed(await output.innerText())).toContain(`received ${SENT}`);
    await page.getByLabel('Edit the arguments as raw JSON').uncheck();
  });

  it('sends a __proto__ and a constructor argument entered in the form', async () => {
    const { page } = on.admin;
    // The SDK client drops a `__proto__` property from a listed tool's schema, so the gateway does
    // not report it yet; the page is given the schema as the server declared it.
    await page.route('**/api/mcp/servers', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      for (const tool of body.servers?.flatMap((s: any) => s.tools) ?? []) {
        if (tool.upstreamName === 'echo_arguments') tool.inputSchema.properties = JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"string"},"note":{"type":"string"}}');
      }
      await route.fulfill({ response, json: body });
    });
    try {
      await page.reload();
      await chooseEcho(page);
      await page.getByLabel('__proto__', { exact: true }).fill('p');
      await page.getByLabel('constructor', { exact: true }).fill('c');
      await page.getByLabel('note', { exact: true }).fill('n');
      await page.getByRole('button', { name: 'Run' }).click();
      const output = page.locator('.inspector-output');
      await output.getByText('success').waitFor(PATIENT);
      expect(echoed(await output.innerText())).toContain(`received ${SENT}`);
      // The raw editor opened from the form shows the same arguments.
      await page.getByLabel('Edit the arguments as raw JSON').check();
      expect(await page.getByLabel('Arguments (raw JSON)').inputValue()).toBe(JSON.stringify(JSON.parse(SENT), null, 2));
      await page.getByLabel('Edit the arguments as raw JSON').uncheck();
      await on.admin.check('inspector-special-arguments');
    } finally {
      await page.unroute('**/api/mcp/servers');
    }
  });
});
