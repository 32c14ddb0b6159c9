import { field, h, render } from './dom.js';
import { draftFromSaved, draftToEdits } from './secretDraft.js';
import { createSecretRows } from './secretRows.js';
import { createOAuthFields } from './oauthFields.js';

/**
 * The add/edit form of a custom server: stdio (command, args, cwd, env) or streamable HTTP / SSE
 * (url, headers); the timeout is always required; `enabled` switches the whole server. New servers
 * start disabled (seed §5.2). Resolves with the saved server, or undefined when cancelled.
 */
export function openServerEditor({ container, ctx, server, onSaved, onClose }) {
  const editing = Boolean(server);
  const draft = {
    env: draftFromSaved(server?.env),
    headers: draftFromSaved(server?.headers),
  };
  const title = editing ? `Edit ${server.name}` : 'Add a custom server';
  const name = h('input', { name: 'name', required: true, value: server?.name ?? '', autocomplete: 'off' });
  const transport = h('select', { name: 'transport' },
    ...[['stdio', 'stdio (a local program)'], ['http', 'Streamable HTTP'], ['sse', 'SSE (legacy HTTP)']].map(([value, label]) =>
      h('option', { value, selected: (server?.transport ?? 'stdio') === value }, label)));
  const timeout = h('input', { name: 'timeoutSeconds', type: 'number', min: '1', max: '600', step: '1', required: true, value: String(server?.timeoutSeconds ?? 60), inputmode: 'numeric' });
  const enabled = h('input', { name: 'enabled', type: 'checkbox', checked: server?.enabled ?? false });
  const command = h('input', { name: 'command', value: server?.command ?? '', autocomplete: 'off', spellcheck: 'false' });
  const args = h('textarea', { name: 'args', rows: '3', spellcheck: 'false' }, (server?.args ?? []).join('\n'));
  const cwd = h('input', { name: 'cwd', value: server?.cwd ?? '', autocomplete: 'off', spellcheck: 'false' });
  const url = h('input', { name: 'url', type: 'url', value: server?.url ?? '', autocomplete: 'off', spellcheck: 'false' });
  const env = createSecretRows({ legend: 'Environment variables', rows: draft.env, caseless: false });
  const headers = createSecretRows({ legend: 'Headers', rows: draft.headers, caseless: true });
  // OAuth settings appear only on gateways whose API has the OAuth routes.
  const oauth = ctx.features?.oauth ? createOAuthFields(server?.auth) : null;
  const formError = h('p', { class: 'error', role: 'alert' });

  const stdioPart = h('div', { class: 'transport-part' },
    field('Command', command, 'The program to run on the gateway host, e.g. npx or /usr/bin/node. Only configure programs you trust.'),
    field('Arguments (one per line)', args),
    field('Working directory (absolute, optional)', cwd),
    env.element);
  const httpPart = h('div', { class: 'transport-part' },
    field('MCP endpoint URL', url, 'The MCP endpoint (e.g. https://example.org/mcp), not a web page.'),
    headers.element, oauth?.element);
  const showPart = () => {
    const stdio = transport.value === 'stdio';
    stdioPart.hidden = !stdio;
    httpPart.hidden = stdio;
    command.required = stdio;
    url.required = !stdio;
  };
  transport.addEventListener('change', showPart);
  showPart();

  const form = h('form', { class: 'card editor', 'aria-labelledby': 'editor-title', novalidate: true },
    h('h3', { id: 'editor-title' }, title),
    field('Name', name),
    field('Transport', transport),
    field('Tool timeout (seconds, 1–600)', timeout, 'Required: every call to this server ends after this long.'),
    h('div', { class: 'field check' }, enabled, h('label', { for: (enabled.id = 'server-enabled') }, 'Enabled (agents may use this server once its tools are discovered)')),
    stdioPart, httpPart, formError,
    h('div', { class: 'actions' },
      h('button', { type: 'submit' }, editing ? 'Save changes' : 'Add server'),
      h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')));

  function close() {
    render(container);
    onClose?.();
  }

  function body() {
    const stdio = transport.value === 'stdio';
    const common = { name: name.value.trim(), transport: transport.value, timeoutSeconds: Number(timeout.value), enabled: enabled.checked };
    if (stdio) {
      const argList = args.value.split('\n').map((a) => a.trim()).filter((a) => a !== '');
      const dir = cwd.value.trim();
      return { ...common, command: command.value.trim(), args: argList, env: draftToEdits(draft.env), ...(dir ? { cwd: dir } : editing ? { cwd: null } : {}) };
    }
    return { ...common, url: url.value.trim(), headers: draftToEdits(draft.headers), ...(oauth ? { auth: oauth.read() } : {}) };
  }

  function localError() {
    const seconds = Number(timeout.value);
    if (!name.value.trim()) return [name, 'Enter a name for the server.'];
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) return [timeout, 'The tool timeout must be a whole number of seconds from 1 to 600.'];
    if (transport.value === 'stdio' && !command.value.trim()) return [command, 'Enter the command that starts the server.'];
    if (transport.value !== 'stdio' && !url.value.trim()) return [url, 'Enter the MCP endpoint URL.'];
    const rows = transport.value === 'stdio' ? env : headers;
    if (rows.check().size > 0) return [rows.element.querySelector('.invalid input'), 'Fix the highlighted entries before saving.'];
    return undefined;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.textContent = '';
    const problem = localError();
    if (problem) {
      formError.textContent = problem[1];
      problem[0]?.focus();
      return;
    }
    try {
      const saved = editing
        ? (await ctx.api('PATCH', `/api/mcp/servers/${encodeURIComponent(server.id)}`, body())).server
        : (await ctx.api('POST', '/api/mcp/servers', body())).server;
      ctx.toast(editing ? `Saved ${saved.name}.` : `Added ${saved.name}${saved.enabled ? '' : ' (disabled until you enable it)'}.`);
      close();
      onSaved(saved);
    } catch (error) {
      formError.textContent = error.message;
    }
  });

  render(container, form);
  name.focus();
}
