import { h, render } from './dom.js';
import { serverCard, testResult } from './serverCard.js';
import { openServerEditor } from './serverEditor.js';
import { openImport } from './serverImport.js';

/** The custom servers panel: list, add/edit, import, test, enable, restart, delete, tool acceptance, OAuth. */
export function createServersPanel(ctx) {
  const list = document.getElementById('server-list');
  const editor = document.getElementById('server-editor');
  const importBox = document.getElementById('server-import');
  let servers = [];
  const open = new Set();

  const refresh = async () => {
    servers = (await ctx.api('GET', '/api/mcp/servers')).servers;
    // Keep the details a user opened open across redraws.
    for (const el of list.querySelectorAll('article.server')) if (el.querySelector('details.server-details')?.open) open.add(el.dataset.serverId);
    render(list, servers.length === 0
      ? h('p', { class: 'muted' }, 'No custom servers yet. Add one, or import a Claude Desktop / Cursor / VS Code "mcpServers" file.')
      : servers.map((server) => serverCard(server, act, { oauth: Boolean(ctx.features?.oauth) })));
    for (const id of open) {
      const details = list.querySelector(`article[data-server-id="${CSS.escape(id)}"] details.server-details`);
      if (details) details.open = true;
    }
    open.clear();
    ctx.customServers = servers;
    ctx.onServers?.(servers);
  };

  const edit = (server) => {
    render(importBox);
    openServerEditor({ container: editor, ctx, server, onSaved: () => refresh(), onClose: () => document.getElementById('server-add').focus() });
    editor.scrollIntoView({ block: 'nearest' });
  };

  const path = (server, tail = '') => `/api/mcp/servers/${encodeURIComponent(server.id)}${tail}`;
  const actions = {
    edit: (server) => edit(server),
    async test(server) {
      const box = document.getElementById(`server-${server.id}-result`);
      render(box, h('p', {}, `Testing ${server.name}…`));
      const result = await ctx.api('POST', path(server, '/test'));
      render(box, testResult(result));
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
    async 'oauth-start'(server) {
      const started = await ctx.api('POST', path(server, '/oauth/start'));
      // The provider's login page opens beside the admin page; the callback lands on this gateway.
      window.open(started.authorizationUrl, '_blank', 'noopener');
      ctx.toast(`Log in to ${server.name} in the new tab (valid until ${new Date(started.expiresAt).toLocaleTimeString()}).`);
      await refresh();
    },
    async 'oauth-cancel'(server) {
      await ctx.api('POST', path(server, '/oauth/cancel'));
      await refresh();
    },
    async 'oauth-clear'(server) {
      if (!(await ctx.confirm(`Clear the stored OAuth credentials of ${server.name}? Agents lose access until someone logs in again.`, 'Clear'))) return;
      await ctx.api('POST', path(server, '/oauth/clear'));
      await refresh();
    },
  };

  async function act(name, server, extra) {
    try {
      await actions[name](server, extra);
    } catch (error) {
      ctx.toast(`${server.name}: ${error.message}`, 'bad');
      await refresh().catch(() => {});
    }
  }

  document.getElementById('server-add').addEventListener('click', () => edit(undefined));
  document.getElementById('server-import-open').addEventListener('click', () => {
    render(editor);
    openImport({ container: importBox, ctx, onImported: () => refresh() });
  });

  return {
    refresh,
    onEvent(event) {
      if (event.type.startsWith('catalog') || event.type.startsWith('custom') || event.type.startsWith('oauth') || event.type.startsWith('mcp')) void refresh().catch(() => {});
    },
  };
}
