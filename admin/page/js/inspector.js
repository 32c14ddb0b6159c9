import { badge, field, h, json, render } from './dom.js';
import { schemaForm } from './schemaForm.js';

/**
 * The Inspector (seed §5.4): an existing Session, an enabled server, a discovered tool; arguments
 * from a form built from the tool's schema (raw JSON as a fallback); one governed call through the
 * broker, with its outcome, duration, raw and normalized results and the governance facts.
 */
export function createInspectorPanel(ctx) {
  const root = document.getElementById('inspector');
  const session = h('select', { name: 'session' });
  const server = h('select', { name: 'server' });
  const tool = h('select', { name: 'tool' });
  const rawToggle = h('input', { type: 'checkbox', id: 'inspector-raw' });
  const raw = h('textarea', { rows: '6', spellcheck: 'false', name: 'raw-arguments' }, '{}');
  const rawField = field('Arguments (raw JSON)', raw);
  const formBox = h('div', { class: 'inspector-form' });
  const run = h('button', { type: 'submit' }, 'Run');
  const cancel = h('button', { type: 'button', class: 'secondary', disabled: true }, 'Cancel');
  const output = h('div', { class: 'inspector-output', role: 'status', 'aria-live': 'polite' });
  let current = null;
  let inFlight = null;
  let pending = null;

  const form = h('form', { class: 'card', 'aria-label': 'Inspector call' },
    field('Session', session, 'The call is audited under this Session; its agent connector selection is not changed.'),
    field('Server (enabled servers only)', server), field('Tool', tool),
    formBox,
    h('div', { class: 'field check' }, rawToggle, h('label', { for: 'inspector-raw' }, 'Edit the arguments as raw JSON')),
    rawField,
    h('div', { class: 'actions' }, run, cancel));
  render(root, form, output);
  rawField.hidden = true;

  const selectedServer = () => (ctx.customServers ?? []).find((s) => s.id === server.value);
  const selectedTool = () => selectedServer()?.tools.find((t) => t.toolId === tool.value);

  function fillSessions(sessions) {
    const keep = session.value;
    const live = sessions.filter((s) => !s.endedAt);
    render(session, live.length ? live.map((s) => h('option', { value: s.id }, sessionLabel(s))) : h('option', { value: '' }, 'No active Session: connect an MCP client first'));
    if (live.some((s) => s.id === keep)) session.value = keep;
  }

  function fillServers(servers) {
    const keep = pending?.serverId ?? server.value;
    const enabled = servers.filter((s) => s.enabled && s.tools.length > 0);
    render(server, enabled.length ? enabled.map((s) => h('option', { value: s.id }, s.name)) : h('option', { value: '' }, 'No enabled server with discovered tools'));
    if (enabled.some((s) => s.id === keep)) server.value = keep;
    fillTools();
  }

  function fillTools() {
    const keep = pending?.toolId ?? tool.value;
    pending = null;
    const tools = selectedServer()?.tools ?? [];
    render(tool, tools.length ? tools.map((t) => h('option', { value: t.toolId }, t.upstreamName)) : h('option', { value: '' }, '—'));
    if (tools.some((t) => t.toolId === keep)) tool.value = keep;
    buildForm();
  }

  let builtFor = null;
  function buildForm() {
    const chosen = selectedTool();
    // A catalog refresh redraws the choices; keep what the admin typed unless the tool changed.
    const signature = chosen ? `${server.value}/${chosen.toolId}/${JSON.stringify(chosen.inputSchema)}` : null;
    if (signature === builtFor && current) return;
    builtFor = signature;
    current = chosen ? schemaForm(chosen.inputSchema) : null;
    render(formBox, current ? current.element : null);
  }

  server.addEventListener('change', fillTools);
  tool.addEventListener('change', buildForm);
  rawToggle.addEventListener('change', () => {
    if (rawToggle.checked) {
      try {
        raw.value = json(current ? current.read() : {});
      } catch {
        // Keep what the raw editor had: the form is incomplete.
      }
    }
    rawField.hidden = !rawToggle.checked;
    formBox.hidden = rawToggle.checked;
  });
  cancel.addEventListener('click', () => inFlight?.abort());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let args;
    try {
      if (!session.value) throw new Error('Choose a Session: connect an MCP client to the gateway first.');
      if (!selectedTool()) throw new Error('Choose an enabled server and one of its tools.');
      args = rawToggle.checked ? parseRaw(raw.value) : current.read();
    } catch (error) {
      render(output, h('p', { class: 'error', role: 'alert' }, error.message));
      return;
    }
    inFlight = new AbortController();
    run.disabled = true;
    cancel.disabled = false;
    render(output, h('p', {}, 'Calling…'));
    try {
      const result = await ctx.api('POST', `/api/mcp/servers/${encodeURIComponent(server.value)}/inspect`,
        { sessionId: session.value, toolId: tool.value, arguments: args }, { signal: inFlight.signal });
      render(output, await resultView(ctx, session.value, result));
    } catch (error) {
      render(output, h('p', { class: 'error', role: 'alert' }, error.code === 'cancelled' ? 'Cancelled. The call was aborted; a remote side effect may still have happened.' : error.message));
    } finally {
      run.disabled = false;
      cancel.disabled = true;
      inFlight = null;
    }
  });

  ctx.onSessions(fillSessions);
  ctx.onServers = fillServers;
  ctx.openInspector = (serverId, toolId) => {
    pending = { serverId, toolId };
    fillServers(ctx.customServers ?? []);
    ctx.showTab('inspector');
    tool.focus();
  };
  return { refresh: async () => fillServers(ctx.customServers ?? []) };
}

function parseRaw(text) {
  let value;
  try {
    value = JSON.parse(text || '{}');
  } catch (error) {
    throw new Error(`The raw arguments are not valid JSON: ${error.message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('The raw arguments must be a JSON object.');
  return value;
}

export function sessionLabel(s) {
  return `${s.clientName ?? 'unknown client'} · ${s.projectId} · ${s.id.slice(0, 12)}`;
}

async function resultView(ctx, sessionId, result) {
  const facts = await ctx.api('GET', `/api/sessions/${encodeURIComponent(sessionId)}/invocations/${encodeURIComponent(result.invocationId)}`).then((r) => r.invocation, () => null);
  const idBox = h('input', { readonly: true, value: result.invocationId, class: 'mono', 'aria-label': 'Invocation id' });
  const copy = h('button', { type: 'button', class: 'secondary small', onclick: async () => {
    idBox.select();
    try {
      await navigator.clipboard.writeText(result.invocationId);
      ctx.toast('Invocation id copied.');
    } catch {
      ctx.toast('Press Ctrl+C to copy the selected id.', 'warn');
    }
  } }, 'Copy');
  return h('div', { class: 'card result' },
    h('p', { class: 'outcome' }, badge('Outcome', result.ok ? 'success' : 'failure', result.ok ? 'ok' : 'bad'), ` ${result.durationMs} ms`),
    h('div', { class: 'field inline' }, idBox, copy),
    result.error ? h('p', { class: 'error' }, `${result.error.code}: ${result.error.message}`) : null,
    facts ? h('dl', { class: 'governance' },
      h('dt', {}, 'Queued'), h('dd', {}, `${facts.queueWaitMs} ms`),
      h('dt', {}, 'Cache'), h('dd', {}, facts.cacheHit ? 'hit' : 'miss'),
      h('dt', {}, 'Attempts'), h('dd', {}, String(facts.attempts)),
      h('dt', {}, 'Authorization'), h('dd', {}, facts.authorizationId ?? 'none needed')) : null,
    h('details', { open: true }, h('summary', {}, 'Normalized result'), h('pre', {}, json(result.normalized))),
    h('details', {}, h('summary', {}, 'Raw response'), h('pre', {}, json(result.raw))));
}
