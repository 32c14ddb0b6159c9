import { describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// Sessions in the page: one an agent opened after the page was is listed when a tab that shows
// Sessions is opened (the gateway sends no event for a new Session).
const on = useGatewayPage();

describe('Sessions in the page', () => {
  it('lists the Sessions agents opened since the page was, when the audit or Inspector tab is opened', async () => {
    await on.gateway.connect({ name: 'first-agent' });
    await on.gateway.connect({ name: 'second-agent' });
    const first = await on.api.sessionOf('first-agent');
    const { page } = on.admin;
    await on.admin.tab('Sessions and audit');
    await page.getByRole('button', { name: first.id.slice(0, 16) }).waitFor();
    await on.gateway.connect({ name: 'third-agent' });
    const third = await on.api.sessionOf('third-agent');
    await on.admin.tab('Inspector');
    await expect.poll(() => page.getByLabel('Session', { exact: true }).locator('option').allInnerTexts(), PATIENT)
      .toContainEqual(expect.stringContaining(third.id.slice(0, 12)));
  });
});
