import { describe, expect, it } from 'vitest';
import { PATIENT } from '../fixtures/browser.js';
import { useGatewayPage } from '../fixtures/gatewayPage.js';

// Sessions in the page: one an agent opened after the page was, listed when a tab that shows
// Sessions is opened (the gateway sends no event for a new Session); and one opened in the audit
// view while the gateway does not answer says so where the list goes, not nothing.
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

  it('says that the chosen Session\'s invocations could not be loaded, in place of another Session\'s list', async () => {
    const first = await on.api.sessionOf('first-agent');
    const second = await on.api.sessionOf('second-agent');
    const { page } = on.admin;
    await on.admin.tab('Sessions and audit');
    await page.getByRole('button', { name: first.id.slice(0, 16) }).click();
    const list = page.locator('.invocations');
    await list.getByRole('heading', { name: `Invocations of ${first.id.slice(0, 16)}` }).waitFor();
    const refused = `**/api/sessions/${second.id}/invocations?limit=500`;
    await page.route(refused, (route) => route.abort('connectionrefused'));
    try {
      await page.getByRole('button', { name: second.id.slice(0, 16) }).click();
      await expect.poll(async () => (await list.getByRole('alert').allInnerTexts()).join(' '), PATIENT)
        .toMatch(new RegExp(`invocations of ${second.id.slice(0, 16)} could not be loaded: The gateway did not answer`));
      await expect(list.innerText()).resolves.not.toContain(`Invocations of ${first.id.slice(0, 16)}`);
    } finally {
      await page.unroute(refused);
      // The browser logs the refused connection this test caused; any other problem still counts.
      const others = on.admin.problems.filter((p) => !/ERR_CONNECTION_REFUSED/.test(p));
      on.admin.problems.splice(0, on.admin.problems.length, ...others);
    }
    await on.admin.check('audit-load-failed');
  });
});
