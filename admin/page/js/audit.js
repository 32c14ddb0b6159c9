import { h, render } from './dom.js';
import { invocationDetail, invocationsTable, sessionsTable, sourceCharts } from './auditViews.js';

/**
 * Sessions and audit: every Session with its project, client and approval mode; one Session's
 * invocations (filter by source and outcome); one invocation's stored arguments and result; and per
 * source, calls, errors and latency over the last hour.
 */
export function createAuditPanel(ctx) {
  const ui = {
    charts: h('div', { class: 'charts', 'aria-label': 'Last hour by source', role: 'group' }),
    sessions: h('div', { class: 'table-wrap' }),
    invocations: h('div', { class: 'invocations' }),
    detail: h('div', { class: 'invocation-detail', role: 'region', 'aria-label': 'Invocation detail' }),
    source: h('select', { id: 'filter-source' }),
    outcome: h('select', { id: 'filter-outcome' }, ...['all', 'ok', 'error', 'cancelled'].map((v) => h('option', { value: v }, v))),
  };
  const state = { selected: null, invocations: [] };
  const reload = h('button', { type: 'button', class: 'secondary', onclick: () => ctx.refreshSessions().then(refresh).catch((e) => ctx.toast(e.message, 'bad')) }, 'Refresh');
  render(document.getElementById('audit'), h('div', { class: 'actions' }, reload), h('h3', {}, 'Last hour by source'), ui.charts,
    h('h3', {}, 'Sessions'), ui.sessions, ui.invocations, ui.detail);

  const select = async (id) => {
    state.selected = id;
    render(ui.detail);
    await refresh();
  };
  const drawInvocations = () => drawSessionInvocations(ctx, ui, state);
  ui.source.addEventListener('change', drawInvocations);
  ui.outcome.addEventListener('change', drawInvocations);

  async function refresh() {
    const recent = await recentInvocations(ctx, ctx.sessions);
    render(ui.sessions, ctx.sessions.length === 0 ? h('p', { class: 'muted' }, 'No Sessions yet: connect an MCP client to the gateway.')
      : sessionsTable(ctx.sessions, { recent, selected: state.selected, onSelect: select }));
    render(ui.charts, sourceCharts([...recent.values()].flat()));
    if (state.selected) await loadInvocations(ctx, ui, state);
  }

  ctx.onSessions(() => void refresh().catch(() => {}));
  return {
    refresh,
    onEvent(event) {
      // A decided request means a call of that Session ran (or was refused): show its row.
      if (state.selected && event.sessionId === state.selected && event.type === 'permission_request.resolved') void loadInvocations(ctx, ui, state).catch(() => {});
    },
  };
}

/** Invocations of the Sessions active in the last hour (at most 50 Sessions, 1000 calls each), by Session id. */
async function recentInvocations(ctx, sessions) {
  const hourAgo = Date.now() - 3600_000;
  const recent = sessions.filter((s) => !s.endedAt || Date.parse(s.endedAt) >= hourAgo).slice(0, 50);
  const lists = await Promise.all(recent.map((s) => ctx.api('GET', `/api/sessions/${encodeURIComponent(s.id)}/invocations?limit=1000`).then((r) => r.invocations, () => [])));
  return new Map(recent.map((s, i) => [s.id, lists[i]]));
}

async function loadInvocations(ctx, ui, state) {
  state.invocations = (await ctx.api('GET', `/api/sessions/${encodeURIComponent(state.selected)}/invocations?limit=500`)).invocations;
  const keep = ui.source.value;
  const sources = [...new Set(state.invocations.map((i) => i.sourceId ?? 'unresolved'))];
  render(ui.source, h('option', { value: 'all' }, 'all'), ...sources.map((v) => h('option', { value: v }, v)));
  ui.source.value = sources.includes(keep) ? keep : 'all';
  drawSessionInvocations(ctx, ui, state);
}

function drawSessionInvocations(ctx, ui, state) {
  const shown = state.invocations.filter((i) => (ui.source.value === 'all' || (i.sourceId ?? 'unresolved') === ui.source.value)
    && (ui.outcome.value === 'all' || i.status === ui.outcome.value));
  const showDetail = async (invocationId) => {
    try {
      render(ui.detail, invocationDetail(await ctx.api('GET', `/api/sessions/${encodeURIComponent(state.selected)}/invocations/${encodeURIComponent(invocationId)}`)));
      document.getElementById('invocation-detail-title').focus();
    } catch (error) {
      ctx.toast(error.message, 'bad');
    }
  };
  render(ui.invocations,
    h('h3', {}, `Invocations of ${state.selected.slice(0, 16)}`),
    h('div', { class: 'filters' },
      h('div', { class: 'field' }, h('label', { for: 'filter-source' }, 'Source'), ui.source),
      h('div', { class: 'field' }, h('label', { for: 'filter-outcome' }, 'Outcome'), ui.outcome)),
    shown.length === 0 ? h('p', { class: 'muted' }, 'No invocations match.') : invocationsTable(shown, showDetail));
}
