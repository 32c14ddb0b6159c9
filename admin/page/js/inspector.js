import { field, h, json, render, submitOnce } from './dom.js';
import { inspectorResult } from './inspectorResult.js';
import { sessionLabel } from './labels.js';
import { schemaForm } from './schemaForm.js';

/**
 * The Inspector (seed §5.4): an existing Session, an enabled server, a discovered tool; arguments
 * from a form built from the tool's schema (raw JSON as a fallback); one governed call through the
 * broker, with its outcome, duration, raw and normalized results and the governance facts.
 */
export function createInspectorPanel(ctx) {
  const ui = inspectorForm();
  render(document.getElementById('inspector'), ui.form, ui.output);
  const choices = createChoices(ctx, ui);
  ui.rawToggle.addEventListener('change', () => {
    if (ui.rawToggle.checked) {
      try {
        ui.raw.value = json(choices.args() ?? {});
      } catch {
        // Keep what the raw editor had: the form is incomplete.
      }
    }
    ui.rawField.hidden = !ui.rawToggle.checked;
    ui.formBox.hidden = ui.rawToggle.checked;
  });
  // One call at a time; Run stays enabled (a disabled button would drop the keyboard focus on it).
  ui.form.addEventListener('submit', submitOnce(ui.form, () => runCall(ctx, ui, choices)));
  ctx.onSessions(choices.fillSessions);
  ctx.onServers = choices.fillServers;
  ctx.openInspector = (serverId, toolId) => {
    choices.fillServers(ctx.customServers ?? [], { serverId, toolId });
    ctx.showTab('inspector');
    ctx.onTabShown?.('inspector');
    ui.tool.focus();
  };
  return { refresh: async () => choices.fillServers(ctx.customServers ?? []) };
}

function inspectorForm() {
  const ui = {
    session: h('select', { name: 'session' }),
    server: h('select', { name: 'server' }),
    tool: h('select', { name: 'tool' }),
    rawToggle: h('input', { type: 'checkbox', id: 'inspector-raw' }),
    raw: h('textarea', { rows: '6', spellcheck: 'false', name: 'raw-arguments' }, '{}'),
    formBox: h('div', { class: 'inspector-form' }),
    run: h('button', { type: 'submit' }, 'Run'),
    cancel: h('button', { type: 'button', class: 'secondary', disabled: true }, 'Cancel'),
    output: h('div', { class: 'inspector-output', role: 'status', 'aria-live': 'polite' }),
    inFlight: null,
  };
  ui.rawField = field('Arguments (raw JSON)', ui.raw);
  ui.rawField.hidden = true;
  ui.cancel.addEventListener('click', () => ui.inFlight?.abort());
  ui.form = h('form', { class: 'card', 'aria-label': 'Inspector call' },
    field('Session', ui.session, 'The call is audited under this Session; its agent connector selection is not changed.'),
    field('Server (enabled servers only)', ui.server), field('Tool', ui.tool),
    ui.formBox,
    h('div', { class: 'field check' }, ui.rawToggle, h('label', { for: 'inspector-raw' }, 'Edit the arguments as raw JSON')),
    ui.rawField,
    h('div', { class: 'actions' }, ui.run, ui.cancel));
  return ui;
}

/** The Session / server / tool choices and the argument form of the chosen tool. */
function createChoices(ctx, ui) {
  let current = null;
  let builtFor = null;
  const selectedServer = () => (ctx.customServers ?? []).find((s) => s.id === ui.server.value);
  const selectedTool = () => selectedServer()?.tools.find((t) => t.toolId === ui.tool.value);

  function buildForm() {
    const chosen = selectedTool();
    // A catalog refresh redraws the choices; keep what the admin typed unless the tool changed.
    const signature = chosen ? `${ui.server.value}/${chosen.toolId}/${JSON.stringify(chosen.inputSchema)}` : null;
    if (signature === builtFor && current) return;
    builtFor = signature;
    current = chosen ? schemaForm(chosen.inputSchema) : null;
    render(ui.formBox, current ? current.element : null);
  }

  function fillTools(wanted) {
    const keep = wanted ?? ui.tool.value;
    const tools = selectedServer()?.tools ?? [];
    render(ui.tool, tools.length ? tools.map((t) => h('option', { value: t.toolId }, t.upstreamName)) : h('option', { value: '' }, '—'));
    if (tools.some((t) => t.toolId === keep)) ui.tool.value = keep;
    buildForm();
  }

  ui.server.addEventListener('change', () => fillTools());
  ui.tool.addEventListener('change', buildForm);
  return {
    selectedTool,
    args: () => current?.read(),
    fillSessions(sessions) {
      const keep = ui.session.value;
      const live = sessions.filter((s) => !s.endedAt);
      render(ui.session, live.length ? live.map((s) => h('option', { value: s.id }, sessionLabel(s))) : h('option', { value: '' }, 'No active Session: connect an MCP client first'));
      if (live.some((s) => s.id === keep)) ui.session.value = keep;
    },
    fillServers(servers, wanted = {}) {
      const keep = wanted.serverId ?? ui.server.value;
      const enabled = servers.filter((s) => s.enabled && s.tools.length > 0);
      render(ui.server, enabled.length ? enabled.map((s) => h('option', { value: s.id }, s.name)) : h('option', { value: '' }, 'No enabled server with discovered tools'));
      if (enabled.some((s) => s.id === keep)) ui.server.value = keep;
      fillTools(wanted.toolId);
    },
  };
}

async function runCall(ctx, ui, choices) {
  let args;
  try {
    if (!ui.session.value) throw new Error('Choose a Session: connect an MCP client to the gateway first.');
    if (!choices.selectedTool()) throw new Error('Choose an enabled server and one of its tools.');
    args = ui.rawToggle.checked ? parseRaw(ui.raw.value) : choices.args();
  } catch (error) {
    render(ui.output, h('p', { class: 'error', role: 'alert' }, error.message));
    return;
  }
  ui.inFlight = new AbortController();
  ui.run.setAttribute('aria-disabled', 'true');
  ui.cancel.disabled = false;
  render(ui.output, h('p', {}, 'Calling…'));
  const sessionId = ui.session.value;
  try {
    const result = await ctx.api('POST', `/api/mcp/servers/${encodeURIComponent(ui.server.value)}/inspect`,
      { sessionId, toolId: ui.tool.value, arguments: args }, { signal: ui.inFlight.signal });
    render(ui.output, await inspectorResult(ctx, sessionId, result));
  } catch (error) {
    render(ui.output, h('p', { class: 'error', role: 'alert' }, error.code === 'cancelled' ? 'Cancelled. The call was aborted; a remote side effect may still have happened.' : error.message));
  } finally {
    ui.run.removeAttribute('aria-disabled');
    // Cancel is disabled once the call ends: focus on it would drop to the page, so it goes to Run.
    if (document.activeElement === ui.cancel) ui.run.focus();
    ui.cancel.disabled = true;
    ui.inFlight = null;
  }
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
