const path = (server, tail) => `/api/mcp/servers/${encodeURIComponent(server.id)}/oauth/${tail}`;

/**
 * OAuth login, cancel and clear from a server card. `pending` (server id → the started login's
 * `{authorizationUrl, expiresAt}`) lets the card offer the provider's page again while it waits;
 * the state itself comes back live as `custom_server.oauth` events.
 */
export function oauthActions(ctx, refresh, pending) {
  return {
    async 'oauth-start'(server) {
      // Opened within the click, before the request: a tab opened after a slow start (discovery,
      // registration) would be blocked as a pop-up. The provider's page gets no handle on this one.
      const tab = window.open('', '_blank');
      if (tab) tab.opener = null;
      let started;
      try {
        started = await ctx.api('POST', path(server, 'start'));
      } catch (error) {
        tab?.close();
        throw error;
      }
      pending.set(server.id, started);
      if (tab) tab.location.href = started.authorizationUrl;
      ctx.toast(tab
        ? `Log in to ${server.name} in the new tab; the callback comes back to this gateway.`
        : `The browser blocked the new tab: use "Open the provider's login page" in ${server.name}'s details.`, tab ? 'ok' : 'bad');
      await refresh();
    },
    async 'oauth-cancel'(server) {
      await ctx.api('POST', path(server, 'cancel'));
      pending.delete(server.id);
      ctx.toast(`The login to ${server.name} was cancelled; its page can no longer finish it.`);
      await refresh();
    },
    async 'oauth-clear'(server) {
      if (!(await ctx.confirm(`Clear the stored OAuth credentials of ${server.name}? Agents lose access until someone logs in again.`, 'Clear'))) return;
      await ctx.api('POST', path(server, 'clear'));
      pending.delete(server.id);
      ctx.toast(`Cleared the OAuth credentials of ${server.name}.`);
      await refresh();
    },
  };
}
