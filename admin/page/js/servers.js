import { h, oneAtATime, render } from './dom.js';
import { focusSpot, restoreFocus } from './focusSpot.js';
import { oauthActions } from './oauthActions.js';
import { serverActions } from './serverActions.js';
import { serverCard } from './serverCard.js';
import { openServerEditor } from './serverEditor.js';
import { openImport } from './serverImport.js';

const CARD = 'article.server';
const serverKey = (card) => card.dataset.serverId;

/** The custom servers panel: list, add/edit, import, test, enable, restart, delete, tool acceptance, OAuth. */
export function createServersPanel(ctx) {
  const list = document.getElementById('server-list');
  const editor = document.getElementById('server-editor');
  const importBox = document.getElementById('server-import');
  let servers = [];
  const open = new Set();
  /** Logins this page started, by server id, while the server waits for them. */
  const pendingLogins = new Map();

  let asked = 0;
  const refresh = async () => {
    // Events arrive in bursts (login, then discovery): an answer overtaken by a later request is dropped, not drawn over it.
    const mine = ++asked;
    const answer = (await ctx.api('GET', '/api/mcp/servers')).servers;
    if (mine !== asked) return;
    servers = answer;
    for (const id of pendingLogins.keys()) if (servers.find((s) => s.id === id)?.authState !== 'authorizing') pendingLogins.delete(id);
    // Keep the details a user opened open across redraws, and keyboard focus where it was.
    for (const el of list.querySelectorAll('article.server')) if (el.querySelector('details.server-details')?.open) open.add(el.dataset.serverId);
    const spot = focusSpot(list, CARD, serverKey);
    render(list, servers.length === 0
      ? h('p', { class: 'muted' }, 'No custom servers yet. Add one, or import a Claude Desktop / Cursor / VS Code "mcpServers" file.')
      : servers.map((server) => serverCard(server, act, { oauth: ctx.features?.oauth ? { pending: pendingLogins.get(server.id) } : null })));
    for (const id of open) {
      const details = list.querySelector(`article[data-server-id="${CSS.escape(id)}"] details.server-details`);
      if (details) details.open = true;
    }
    open.clear();
    restoreFocus(list, spot, { itemSelector: CARD, keyOf: serverKey, fallback: document.getElementById('server-add') });
    ctx.customServers = servers;
    ctx.onServers?.(servers);
  };

  const edit = (server) => {
    render(importBox);
    openServerEditor({ container: editor, ctx, server, onSaved: () => refresh(), onClose: () => document.getElementById('server-add').focus() });
    editor.scrollIntoView({ block: 'nearest' });
  };

  const actions = { ...serverActions(ctx, refresh), ...oauthActions(ctx, refresh, pendingLogins), edit };
  /** One action at a time per server: a click on its card sends nothing until the one running ends. */
  const once = oneAtATime();
  function act(name, server, extra) {
    // A second click (a double click) sends nothing: a second toggle would undo the first, a second
    // delete or test would be answered with an error that hides the first one's outcome. The card
    // says it is busy.
    return once(server.id, async () => {
      const card = [...list.querySelectorAll(CARD)].find((c) => c.dataset.serverId === server.id);
      card?.setAttribute('aria-busy', 'true');
      try {
        await actions[name](server, extra);
      } catch (error) {
        ctx.toast(`${server.name}: ${error.message}`, 'bad');
        await refresh().catch(() => {});
      } finally {
        card?.removeAttribute('aria-busy');
      }
    });
  }

  document.getElementById('server-add').addEventListener('click', () => edit(undefined));
  document.getElementById('server-import-open').addEventListener('click', () => {
    render(editor);
    openImport({ container: importBox, ctx, onImported: () => refresh(), onClose: () => document.getElementById('server-import-open').focus() });
  });

  return {
    refresh,
    onEvent(event) {
      if (event.type.startsWith('catalog') || event.type.startsWith('custom') || event.type.startsWith('oauth') || event.type.startsWith('mcp')) void refresh().catch(() => {});
    },
  };
}
