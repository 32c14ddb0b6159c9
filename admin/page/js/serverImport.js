import { field, h, render, submitOnce } from './dom.js';

/**
 * JSON import of `{"mcpServers": {…}}` (Claude Desktop, Cursor, the MCP Inspector) or VS Code's
 * `{"servers": {…}}`. The gateway checks the whole batch and saves all or nothing, every entry
 * disabled; the page lists each entry with its own error, so one bad entry is easy to find.
 */
export function openImport({ container, ctx, onImported, onClose }) {
  const file = h('input', { type: 'file', accept: 'application/json,.json' });
  const text = h('textarea', { rows: '10', spellcheck: 'false', placeholder: '{"mcpServers": {"name": {"command": "npx", "args": ["…"]}}}' });
  const outcome = h('div', { class: 'import-outcome', role: 'status', 'aria-live': 'polite' });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (chosen) text.value = await chosen.text();
  });
  const form = h('form', { class: 'card', 'aria-labelledby': 'import-title' },
    h('h3', { id: 'import-title' }, 'Import servers from JSON'),
    h('p', { class: 'hint' }, 'Imported servers start disabled. Nothing runs and no agent gets access until you test and enable them.'),
    field('JSON file', file), field('…or paste the JSON', text), outcome,
    h('div', { class: 'actions' },
      h('button', { type: 'submit' }, 'Import'),
      h('button', { type: 'button', class: 'secondary', onclick: () => { render(container); onClose?.(); } }, 'Close')));
  // One import at a time: a second one (a double click) would be refused as a repeat and its
  // error would replace the first one's success. Import stays enabled: a disabled button drops focus.
  form.addEventListener('submit', submitOnce(form, async () => {
    let document;
    try {
      document = JSON.parse(text.value);
    } catch (error) {
      render(outcome, h('p', { class: 'error', role: 'alert' }, `The file is not valid JSON (${error.message}); nothing was imported.`));
      return;
    }
    const names = entryNames(document);
    render(outcome, h('p', {}, 'Importing…'));
    try {
      // The text as written, not the parsed document: the gateway names the entries a repeated
      // name hides (JSON.parse keeps only the last of them).
      const { servers, warnings = [] } = await ctx.api('POST', '/api/mcp/servers/import', undefined, { jsonText: text.value });
      render(outcome, h('p', {}, `Imported ${servers.length} server${servers.length === 1 ? '' : 's'}, all disabled: ${servers.map((s) => s.name).join(', ')}.`),
        ...warnings.map((warning) => h('p', { class: 'warning' }, warning)));
      ctx.toast(`Imported ${servers.length} server${servers.length === 1 ? '' : 's'} (disabled).`);
      onImported();
    } catch (error) {
      render(outcome, importErrors(names, error));
    }
  }));
  render(container, form);
  text.focus();
}

/** VS Code's mcp.json names the list `servers`; the others `mcpServers`. */
function listKey(document) {
  return document && typeof document === 'object' && !('mcpServers' in document) && 'servers' in document ? 'servers' : 'mcpServers';
}

function entryNames(document) {
  const key = listKey(document);
  const servers = document && typeof document === 'object' ? document[key] : undefined;
  return { key, names: servers && typeof servers === 'object' && !Array.isArray(servers) ? Object.keys(servers) : [] };
}

/**
 * The gateway names the failing entry in the field path (`mcpServers.<name>.<field>`), whichever
 * key the file used; the page says it with the file's own key.
 */
function importErrors({ key, names }, error) {
  const fieldPath = typeof error.details?.field === 'string' ? error.details.field : '';
  const culprit = names.filter((n) => fieldPath === `mcpServers.${n}` || fieldPath.startsWith(`mcpServers.${n}.`)).sort((a, b) => b.length - a.length)[0];
  const said = key === 'mcpServers' ? error.message : error.message.replace(/\bmcpServers\b/g, key);
  const message = culprit ? said.replace(`${key}.${culprit}`, '').replace(/^[.:\s]+/, '') : said;
  return h('div', { class: 'import-errors' },
    h('p', { class: 'error', role: 'alert' }, culprit ? `Nothing was imported: the entry "${culprit}" has an error.` : `Nothing was imported: ${said}`),
    names.length ? h('ul', { class: 'import-entries' }, ...names.map((name) => h('li', { class: name === culprit ? 'error' : 'muted', dataset: { entry: name } },
      h('strong', {}, name), name === culprit ? `: ${message}` : ': not imported (the batch is saved all or nothing)'))) : null);
}
