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
  const state = { selected: null, invocations: [], next: null, loadedFor: null };
  const reload = h('button', { type: 'button', class: 'secondary', onclick: () => ctx.refreshSessions().then(refresh).catch((e) => ctx.toast(e.message, 'bad')) }, 'Refresh');
  render(document.getElementById('audit'), h('div', { class: 'actions' }, reload), h('h3', {}, 'Last hour by source'), ui.charts,
    h('h3', {}, 'Sessions'), ui.sessions, ui.invocations, ui.detail);

  const select = async (id) => {
    state.selected = id;
    render(ui.detail);
    try {
      await refresh();
    } catch (error) {
      // Said where the list goes: the previous Session's list must not stand under this one's selection.
      render(ui.invocations, h('p', { class: 'error', role: 'alert' }, `The invocations of ${id.slice(0, 16)} could not be loaded: ${error.message}`));
    }
  };
  const drawInvocations = () => drawSessionInvocations(ctx, ui, state);
  ui.source.addEventListener('change', drawInvocations);
  ui.outcome.addEventListener('change', drawInvocations);

  async function refresh() {
    const recent = await recentInvocations(ctx, ctx.sessions);
    render(ui.sessions, ctx.sessions.length === 0 ? h('p', { class: 'muted' }, 'No Sessions yet: connect an MCP client to the gateway.')
      : sessionsTable(ctx.sessions, { recent, selected: state.selected, onSelect: select }));
    render(ui.charts, sourceCharts([...recent.values()].flatMap((r) => r.invocations)));
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

/** At most this many invocations are read per Session for its call count and the charts (10 pages). */
const COUNT_PAGES = 10;
const PAGE = 1000;
/** One Session's invocations list in pages of this many, newest first; "Load older" reads the next. */
const LIST_PAGE = 500;

const invocationsPath = (sessionId, limit, before) =>
  `/api/sessions/${encodeURIComponent(sessionId)}/invocations?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`;

/**
 * Invocations of the Sessions active in the last hour (at most 50 Sessions), by Session id:
 * `{ invocations, more }`, following the API's `next` cursor up to COUNT_PAGES pages; `more` says
 * the count stopped there, so the page shows "10000+" rather than a number that is not the total.
 */
async function recentInvocations(ctx, sessions) {
  const hourAgo = Date.now() - 3600_000;
  const recent = sessions.filter((s) => !s.endedAt || Date.parse(s.endedAt) >= hourAgo).slice(0, 50);
  const read = async (id) => {
    const invocations = [];
    let next = null;
    for (let page = 0; page < COUNT_PAGES; page++) {
      const answer = await ctx.api('GET', invocationsPath(id, PAGE, next));
      invocations.push(...answer.invocations);
      next = answer.next;
      if (!next) break;
    }
    return { invocations, more: Boolean(next) };
  };
  const lists = await Promise.all(recent.map((s) => read(s.id).catch(() => null)));
  return new Map(recent.flatMap((s, i) => (lists[i] ? [[s.id, lists[i]]] : [])));
}

/**
 * The selected Session's newest invocations, keeping the older pages already loaded with "Load
 * older" when the new first page joins them (no gap in between); `state.next` is the cursor of
 * the oldest loaded one, null when all are loaded.
 */
async function loadInvocations(ctx, ui, state) {
  const first = await ctx.api('GET', invocationsPath(state.selected, LIST_PAGE));
  const fresh = new Set(first.invocations.map((i) => i.id));
  const joins = first.next && state.loadedFor === state.selected && state.invocations.some((i) => fresh.has(i.id));
  state.invocations = joins ? [...first.invocations, ...state.invocations.filter((i) => !fresh.has(i.id))] : first.invocations;
  if (!joins) state.next = first.next;
  state.loadedFor = state.selected;
  drawSources(ui, state);
  drawSessionInvocations(ctx, ui, state);
}

async function loadOlder(ctx, ui, state) {
  const answer = await ctx.api('GET', invocationsPath(state.selected, LIST_PAGE, state.next));
  const known = new Set(state.invocations.map((i) => i.id));
  state.invocations.push(...answer.invocations.filter((i) => !known.has(i.id)));
  state.next = answer.next;
  drawSources(ui, state);
  drawSessionInvocations(ctx, ui, state);
}

function drawSources(ui, state) {
  const keep = ui.source.value;
  const sources = [...new Set(state.invocations.map((i) => i.sourceId ?? 'unresolved'))];
  render(ui.source, h('option', { value: 'all' }, 'all'), ...sources.map((v) => h('option', { value: v }, v)));
  ui.source.value = sources.includes(keep) ? keep : 'all';
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
  const older = async (event) => {
    event.currentTarget.disabled = true;
    try {
      await loadOlder(ctx, ui, state);
      document.getElementById('invocations-more')?.focus();
    } catch (error) {
      ctx.toast(error.message, 'bad');
      drawSessionInvocations(ctx, ui, state);
    }
  };
  const loaded = state.invocations.length;
  // Older calls are never silently missing: the list says how many it holds and that the filters cover those only.
  const coverage = state.next
    ? h('p', { class: 'hint', id: 'invocations-coverage' }, `Showing the newest ${loaded} invocations; older ones are not loaded yet, and the filters cover the loaded ones only.`)
    : h('p', { class: 'hint', id: 'invocations-coverage' }, `All ${loaded} invocation${loaded === 1 ? '' : 's'} of this Session are loaded.`);
  render(ui.invocations,
    h('h3', {}, `Invocations of ${state.selected.slice(0, 16)}`),
    h('div', { class: 'filters' },
      h('div', { class: 'field' }, h('label', { for: 'filter-source' }, 'Source'), ui.source),
      h('div', { class: 'field' }, h('label', { for: 'filter-outcome' }, 'Outcome'), ui.outcome)),
    coverage,
    shown.length === 0 ? h('p', { class: 'muted' }, state.next ? 'No loaded invocations match.' : 'No invocations match.') : invocationsTable(shown, showDetail),
    state.next ? h('button', { type: 'button', class: 'secondary', id: 'invocations-more', onclick: older }, `Load older invocations (next ${LIST_PAGE})`) : null);
}
