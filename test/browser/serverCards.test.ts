import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// The server cards on a phone and from the keyboard: a long name wraps instead of widening every
// card past the screen, and an action that redraws the list leaves focus on the card, not the page.
const LONG_NAME = 'x'.repeat(100);
const on = useGatewayPage();

beforeAll(async () => {
  // Never started: a command that exits is enough for cards that are only drawn, enabled and deleted.
  for (const name of [LONG_NAME, 'alpha', 'beta']) {
    expect((await on.api.post('/api/mcp/servers', { name, transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(0)'] })).status).toBe(201);
  }
});

const focused = (page: any) => page.evaluate(() => {
  const active = (globalThis as any).document.activeElement;
  return { text: active?.textContent ?? '', card: active?.closest('article.server')?.querySelector('h3')?.textContent ?? null };
});

describe('server cards', () => {
  it('wrap a 100-character name within a 375 px screen', async () => {
    const narrow = await on.browser.open(on.gateway, { width: 375 });
    await narrow.page.locator('article.server', { hasText: 'alpha' }).waitFor();
    const widths = await narrow.page.evaluate(() => {
      const doc = (globalThis as any).document;
      return { overflow: doc.documentElement.scrollWidth - doc.documentElement.clientWidth, cards: [...doc.querySelectorAll('article.server')].map((c: any) => c.getBoundingClientRect().right) };
    });
    expect(widths.overflow).toBeLessThanOrEqual(0);
    for (const right of widths.cards) expect(right).toBeLessThanOrEqual(375);
    await narrow.check('servers-long-name');
    await narrow.context.close();
  });

  it('keep keyboard focus on the card after an action redraws the list, and move it to the next card after a delete', async () => {
    const admin = await on.browser.open(on.gateway);
    const { page } = admin;
    const alpha = page.locator('article.server', { hasText: 'alpha' });
    await alpha.getByRole('button', { name: 'Enable alpha' }).focus();
    await page.keyboard.press('Enter');
    await alpha.getByRole('button', { name: 'Disable alpha' }).waitFor();
    await expect.poll(() => focused(page), PATIENT).toEqual({ text: 'Disable alpha', card: 'alpha' });

    await alpha.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await alpha.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page), PATIENT).toEqual({ text: 'Delete', card: 'beta' });
    await admin.check('servers-focus-after-delete');
    await admin.context.close();
  });
});
