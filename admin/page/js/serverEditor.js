import { ARGS_HINT, argsToText, parseArgsText } from './argsText.js';
import { field, h, render, submitOnce } from './dom.js';
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
  // One save at a time: a second (a double click) would restart the server again, or fail unseen.
  form.addEventListener('submit', submitOnce(form, async () => {
    formError.textContent = '';
    const problem = localProblem(c);
    if (problem) {
      formError.textContent = problem[1];
      problem[0]?.focus();
      return;
    }
    try {
      const saved = editing
        ? (await ctx.api('PATCH', `/api/mcp/servers/${encodeURIComponent(server.id)}`, patchBody(c))).server
        : (await ctx.api('POST', '/api/mcp/servers', createBody(c))).server;
      ctx.toast(editing ? `Saved ${saved.name}.` : `Added ${saved.name}${saved.enabled ? '' : ' (disabled until you enable it)'}.`);
      close();
      onSaved(saved);
    } catch (error) {
      formError.textContent = error.message;
    }
  }));
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
    args: h('textarea', { name: 'args', rows: '3', spellcheck: 'false' }, argsToText(server?.args)),
    cwd: text('cwd', server?.cwd),
    url: text('url', server?.url, { type: 'url' }),
    // OAuth settings appear only on gateways whose API has the OAuth routes.
    oauth: ctx.features?.oauth ? createOAuthFields(server?.auth) : null,
  };
  c.env = createSecretRows({ legend: 'Environment variables', rows: c.draft.env, caseless: false });
  c.headers = createSecretRows({ legend: 'Headers', rows: c.draft.headers, caseless: true });
  c.stdioPart = h('div', { class: 'transport-part' },
    field('Command', c.command, 'The program to run on the gateway host, e.g. npx or /usr/bin/node. Only configure programs you trust.'),
    field('Arguments (one per line)', c.args, ARGS_HINT), field('Working directory (absolute, optional)', c.cwd), c.env.element);
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
  c.opened = formValues(c);
  return c;
}

/** What each request field holds as the form now reads; env/header values follow the secret-edit contract. */
function formValues(c) {
  const dir = c.cwd.value.trim();
  return {
    name: c.name.value.trim(), transport: c.transport.value, timeoutSeconds: Number(c.timeout.value), enabled: c.enabled.checked,
    command: c.command.value.trim(), args: c.args.value, cwd: dir || null, env: draftToEdits(c.draft.env),
    url: c.url.value.trim(), headers: draftToEdits(c.draft.headers), ...(c.oauth ? { auth: c.oauth.read() } : {}),
  };
}

const COMMON_FIELDS = ['name', 'transport', 'timeoutSeconds', 'enabled'];
const PART_FIELDS = { stdio: ['command', 'args', 'cwd', 'env'], remote: ['url', 'headers', 'auth'] };
const partOf = (transport) => PART_FIELDS[transport === 'stdio' ? 'stdio' : 'remote'];

/** The POST body of a new server: every field of its transport. */
function createBody(c) {
  const now = formValues(c);
  const body = pick(now, [...COMMON_FIELDS, ...partOf(now.transport)]);
  if (body.cwd === null) delete body.cwd;
  return body;
}

/**
 * The PATCH body: only what the admin changed in this form. Anything else may have been changed
 * meanwhile (enabled from the card, another tab's edit), and resending the form's stale copy would
 * undo it. A changed transport sends its whole part, since the other transport's settings are dropped.
 */
function patchBody(c) {
  const now = formValues(c);
  const fields = now.transport !== c.opened.transport
    ? [...COMMON_FIELDS.filter((f) => f === 'transport' || !same(now[f], c.opened[f])), ...partOf(now.transport)]
    : [...COMMON_FIELDS, ...partOf(now.transport)].filter((f) => !same(now[f], c.opened[f]));
  return pick(now, fields);
}

function pick(values, fields) {
  const body = {};
  for (const f of fields) if (values[f] !== undefined) body[f] = f === 'args' ? parseArgsText(values.args).args : values[f];
  return body;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The first thing to fix before saving, as [control to focus, message], or undefined. */
function localProblem(c) {
  const seconds = Number(c.timeout.value);
  const stdio = c.transport.value === 'stdio';
  if (!c.name.value.trim()) return [c.name, 'Enter a name for the server.'];
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) return [c.timeout, 'The tool timeout must be a whole number of seconds from 1 to 600.'];
  if (stdio && !c.command.value.trim()) return [c.command, 'Enter the command that starts the server.'];
  const args = stdio ? parseArgsText(c.args.value) : {};
  if (args.error) return [c.args, args.error];
  if (!stdio && !c.url.value.trim()) return [c.url, 'Enter the MCP endpoint URL.'];
  const rows = stdio ? c.env : c.headers;
  if (rows.check().size > 0) return [rows.element.querySelector('.invalid input'), 'Fix the highlighted entries before saving.'];
  return undefined;
}
