import { h, render } from './dom.js';
import { testResult } from './serverCard.js';

const path = (server, tail = '') => `/api/mcp/servers/${encodeURIComponent(server.id)}${tail}`;

/**
 * What each button of a server card does: one admin API call (confirmed first when it restarts,
 * deletes), a short message, then `refresh()` of the list. OAuth actions: oauthActions.js.
 */
export function serverActions(ctx, refresh) {
  return {
    async test(server) {
      // The list may be redrawn while the test runs: draw into the card's box as it is then.
      const box = () => document.getElementById(`server-${server.id}-result`) ?? h('div');
      render(box(), h('p', {}, `Testing ${server.name}…`));
      let result;
      try {
        result = await ctx.api('POST', path(server, '/test'));
      } catch (error) {
        // Said in the box that said "Testing…", which must not go on saying it; no redraw, which would draw the last test over it.
        render(box(), h('p', { class: 'error' }, `The test of ${server.name} did not complete: ${error.message}`));
        ctx.toast(`${server.name}: ${error.message}`, 'bad');
        return;
      }
      render(box(), testResult(result));
      await refresh();
    },
    async toggle(server) {
      await ctx.api('PATCH', path(server), { enabled: !server.enabled });
      ctx.toast(`${server.name} ${server.enabled ? 'disabled' : 'enabled'}.`);
      await refresh();
    },
    async restart(server) {
      if (!(await ctx.confirm(`Restart ${server.name}? Its connection is closed and opened again; calls in flight fail.`, 'Restart'))) return;
      // Saving a server unchanged re-registers it: a fresh client, a fresh process, rediscovery.
      await ctx.api('PATCH', path(server), {});
      ctx.toast(`${server.name} restarted.`);
      await refresh();
    },
    async delete(server) {
      if (!(await ctx.confirm(`Delete ${server.name}? Its configuration, checks and stored credentials are removed; the program itself is not uninstalled.`, 'Delete'))) return;
      await ctx.api('DELETE', path(server));
      ctx.toast(`${server.name} deleted.`);
      await refresh();
    },
    async accept(server, toolName) {
      await ctx.api('POST', path(server, '/accept-tools'), { tools: [toolName] });
      ctx.toast(`Accepted the new definition of ${toolName}.`);
      await refresh();
    },
    inspect: (server, tool) => ctx.openInspector?.(server.id, tool.toolId),
  };
}
