import { field, h, render } from './dom.js';
import { draftFromSaved, draftToEdits } from './secretDraft.js';
import { createSecretRows } from './secretRows.js';
import { createOAuthFields } from './oauthFields.js';

const TRANSPORTS = [['stdio', 'stdio (a local program)'], ['http', 'Streamable HTTP'], ['sse', 'SSE (legacy HTTP)']];

/**
 * The add/edit form of a custom server: stdio (command, args, cwd, env) or streamable HTTP / SSE
 * (url, headers, OAuth where the gateway has it); the timeout is always required; `enabled`
 * switches the whole server. New servers start disabled (seed §5.2).
 */
export function openServerEditor({ container, ctx, server, onSaved, onClose }) {
  const editing = Boolean(server);
  const c = editorControls(ctx, server);
  const formError = h('p', { class: 'error', role: 'alert' });
  const close = () => {
    render(container);
    onClose?.();
  };
  const form = h('form', { class: 'card editor', 'aria-labelledby': 'editor-title', novalidate: true },
    h('h3', { id: 'editor-title' }, editing ? `Edit ${server.name}` : 'Add a custom server'),
    field('Name', c.name), field('Transport', c.transport),
    field('Tool timeout (seconds, 1–600)', c.timeout, 'Required: every call to this server ends after this long. After 3 calls in a row run out of it, the server is taken for hung and its connection restarted, so give a slow server more.'),
    h('div', { class: 'field check' }, c.enabled, h('label', { for: c.enabled.id }, 'Enabled (agents may use this server once its tools are discovered)')),
    c.stdioPart, c.httpPart, formError,
    h('div', { class: 'actions' },
      h('button', { type: 'submit' }, editing ? 'Save changes' : 'Add server'),
      h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.textContent = '';
    const problem = localProblem(c);
    if (problem) {
      formError.textContent = problem[1];
      problem[0]?.focus();
      return;
    }
    try {
      const saved = editing
        ? (await ctx.api('PATCH', `/api/mcp/servers/${encodeURIComponent(server.id)}`, requestBody(c, editing))).server
        : (await ctx.api('POST', '/api/mcp/servers', requestBody(c, editing))).server;
      ctx.toast(editing ? `Saved ${saved.name}.` : `Added ${saved.name}${saved.enabled ? '' : ' (disabled until you enable it)'}.`);
      close();
      onSaved(saved);
    } catch (error) {
      formError.textContent = error.message;
    }
  });
  render(container, form);
  c.name.focus();
}

/** The form's controls, filled from the saved server (secret values never: see secretDraft.js). */
function editorControls(ctx, server) {
  const text = (name, value, extra = {}) => h('input', { name, value: value ?? '', autocomplete: 'off', spellcheck: 'false', ...extra });
  const c = {
    draft: { env: draftFromSaved(server?.env), headers: draftFromSaved(server?.headers) },
    name: text('name', server?.name, { required: true }),
    transport: h('select', { name: 'transport' }, ...TRANSPORTS.map(([value, label]) => h('option', { value, selected: (server?.transport ?? 'stdio') === value }, label))),
    timeout: h('input', { name: 'timeoutSeconds', type: 'number', min: '1', max: '600', step: '1', required: true, value: String(server?.timeoutSeconds ?? 60), inputmode: 'numeric' }),
    enabled: h('input', { name: 'enabled', type: 'checkbox', checked: server?.enabled ?? false, id: 'server-enabled' }),
    command: text('command', server?.command),
    args: h('textarea', { name: 'args', rows: '3', spellcheck: 'false' }, (server?.args ?? []).join('\n')),
    cwd: text('cwd', server?.cwd),
    url: text('url', server?.url, { type: 'url' }),
    // OAuth settings appear only on gateways whose API has the OAuth routes.
    oauth: ctx.features?.oauth ? createOAuthFields(server?.auth) : null,
  };
  c.env = createSecretRows({ legend: 'Environment variables', rows: c.draft.env, caseless: false });
  c.headers = createSecretRows({ legend: 'Headers', rows: c.draft.headers, caseless: true });
  c.stdioPart = h('div', { class: 'transport-part' },
    field('Command', c.command, 'The program to run on the gateway host, e.g. npx or /usr/bin/node. Only configure programs you trust.'),
    field('Arguments (one per line)', c.args), field('Working directory (absolute, optional)', c.cwd), c.env.element);
  c.httpPart = h('div', { class: 'transport-part' },
    field('MCP endpoint URL', c.url, 'The MCP endpoint (e.g. https://example.org/mcp), not a web page.'), c.headers.element, c.oauth?.element);
  const showPart = () => {
    const stdio = c.transport.value === 'stdio';
    c.stdioPart.hidden = !stdio;
    c.httpPart.hidden = stdio;
    c.command.required = stdio;
    c.url.required = !stdio;
  };
  c.transport.addEventListener('change', showPart);
  showPart();
  return c;
}

/** The create (POST) or update (PATCH) body; env/header values follow the secret-edit contract. */
function requestBody(c, editing) {
  const common = { name: c.name.value.trim(), transport: c.transport.value, timeoutSeconds: Number(c.timeout.value), enabled: c.enabled.checked };
  if (c.transport.value !== 'stdio') {
    return { ...common, url: c.url.value.trim(), headers: draftToEdits(c.draft.headers), ...(c.oauth ? { auth: c.oauth.read() } : {}) };
  }
  const args = c.args.value.split('\n').map((a) => a.trim()).filter((a) => a !== '');
  const dir = c.cwd.value.trim();
  return { ...common, command: c.command.value.trim(), args, env: draftToEdits(c.draft.env), ...(dir ? { cwd: dir } : editing ? { cwd: null } : {}) };
}

/** The first thing to fix before saving, as [control to focus, message], or undefined. */
function localProblem(c) {
  const seconds = Number(c.timeout.value);
  const stdio = c.transport.value === 'stdio';
  if (!c.name.value.trim()) return [c.name, 'Enter a name for the server.'];
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) return [c.timeout, 'The tool timeout must be a whole number of seconds from 1 to 600.'];
  if (stdio && !c.command.value.trim()) return [c.command, 'Enter the command that starts the server.'];
  if (!stdio && !c.url.value.trim()) return [c.url, 'Enter the MCP endpoint URL.'];
  const rows = stdio ? c.env : c.headers;
  if (rows.check().size > 0) return [rows.element.querySelector('.invalid input'), 'Fix the highlighted entries before saving.'];
  return undefined;
}
