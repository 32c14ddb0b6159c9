import { badge, h, json, render, when } from './dom.js';
import { sourceChart } from './chart.js';

/**
 * Sessions and audit: every Session with its project, client and approval mode; one Session's
 * invocations (filter by source and outcome); one invocation's stored arguments and result; and per
 * source, calls, errors and latency over the last hour.
 */
export function createAuditPanel(ctx) {
  const root = document.getElementById('audit');
  const charts = h('div', { class: 'charts', 'aria-label': 'Last hour by source', role: 'group' });
  const sessionsBox = h('div', { class: 'table-wrap' });
  const invocationsBox = h('div', { class: 'invocations' });
  const detailBox = h('div', { class: 'invocation-detail', role: 'region', 'aria-label': 'Invocation detail' });
  let selected = null;
  let invocations = [];
  const sourceFilter = h('select', { id: 'filter-source' });
  const outcomeFilter = h('select', { id: 'filter-outcome' }, ...['all', 'ok', 'error', 'cancelled'].map((v) => h('option', { value: v }, v)));
  sourceFilter.addEventListener('change', drawInvocations);
  outcomeFilter.addEventListener('change', drawInvocations);
  const reload = h('button', { type: 'button', class: 'secondary', onclick: () => ctx.refreshSessions().then(refresh).catch((e) => ctx.toast(e.message, 'bad')) }, 'Refresh');
  render(root, h('div', { class: 'actions' }, reload), h('h3', {}, 'Last hour by source'), charts, h('h3', {}, 'Sessions'), sessionsBox, invocationsBox, detailBox);

  async function refresh() {
    const sessions = ctx.sessions;
    const recent = await recentInvocations(sessions);
    render(sessionsBox, sessions.length === 0 ? h('p', { class: 'muted' }, 'No Sessions yet: connect an MCP client to the gateway.') : sessionsTable(sessions, recent));
    drawCharts([...recent.values()].flat());
    if (selected) await loadInvocations();
  }

  /** Invocations of the Sessions active in the last hour (at most 50 Sessions, 1000 calls each), by Session id. */
  async function recentInvocations(sessions) {
    const hourAgo = Date.now() - 3600_000;
    const recent = sessions.filter((s) => !s.endedAt || Date.parse(s.endedAt) >= hourAgo).slice(0, 50);
    const lists = await Promise.all(recent.map((s) => ctx.api('GET', `/api/sessions/${encodeURIComponent(s.id)}/invocations?limit=1000`).then((r) => r.invocations, () => [])));
    return new Map(recent.map((s, i) => [s.id, lists[i]]));
  }

  function sessionsTable(sessions, recent) {
    return h('table', {}, h('caption', { class: 'visually-hidden' }, 'Sessions'),
      h('thead', {}, h('tr', {}, ...['Session', 'Project', 'Client', 'Approval mode', 'Calls', 'Started', 'State'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...sessions.map((s) => h('tr', { class: s.id === selected ? 'selected' : '' },
        cell('Session', h('button', { type: 'button', class: 'link', 'aria-pressed': s.id === selected ? 'true' : 'false', onclick: () => select(s.id) }, s.id.slice(0, 16))),
        cell('Project', s.projectId), cell('Client', `${s.clientName ?? '—'} ${s.clientVersion ?? ''}`),
        cell('Approval mode', s.approvalMode === 'always_allow' ? 'always allow' : 'ask for dangerous'),
        cell('Calls', recent.has(s.id) ? String(recent.get(s.id).length) : '—'),
        cell('Started', when(s.createdAt)), cell('State', s.endedAt ? `ended ${when(s.endedAt)}` : 'active')))));
  }

  function drawCharts(invocations) {
    const bySource = new Map();
    for (const inv of invocations) {
      const key = inv.sourceId ?? 'unresolved';
      if (!bySource.has(key)) bySource.set(key, []);
      bySource.get(key).push(inv);
    }
    render(charts, bySource.size === 0 ? h('p', { class: 'muted' }, 'No calls in the last hour.') : [...bySource].map(([id, list]) => sourceChart(id, list)));
    if (bySource.size > 0) charts.append(h('p', { class: 'chart-legend' }, 'Each chart: 5-minute bars of calls (hatched part: errors), dashed line: mean latency.'));
  }

  async function select(id) {
    selected = id;
    render(detailBox);
    await refresh();
  }

  async function loadInvocations() {
    invocations = (await ctx.api('GET', `/api/sessions/${encodeURIComponent(selected)}/invocations?limit=500`)).invocations;
    const keep = sourceFilter.value;
    const sources = [...new Set(invocations.map((i) => i.sourceId ?? 'unresolved'))];
    render(sourceFilter, h('option', { value: 'all' }, 'all'), ...sources.map((v) => h('option', { value: v }, v)));
    sourceFilter.value = sources.includes(keep) ? keep : 'all';
    drawInvocations();
  }

  function drawInvocations() {
    const shown = invocations.filter((i) => (sourceFilter.value === 'all' || (i.sourceId ?? 'unresolved') === sourceFilter.value)
      && (outcomeFilter.value === 'all' || i.status === outcomeFilter.value));
    render(invocationsBox,
      h('h3', {}, `Invocations of ${selected.slice(0, 16)}`),
      h('div', { class: 'filters' },
        h('div', { class: 'field' }, h('label', { for: 'filter-source' }, 'Source'), sourceFilter),
        h('div', { class: 'field' }, h('label', { for: 'filter-outcome' }, 'Outcome'), outcomeFilter)),
      shown.length === 0 ? h('p', { class: 'muted' }, 'No invocations match.') :
        h('div', { class: 'table-wrap' }, h('table', {}, h('caption', { class: 'visually-hidden' }, 'Invocations'),
          h('thead', {}, h('tr', {}, ...['Tool', 'Origin', 'Outcome', 'Duration', 'Queued', 'Attempts', 'Started'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...shown.map((i) => h('tr', { dataset: { invocationId: i.id } },
            cell('Tool', h('button', { type: 'button', class: 'link', onclick: () => showDetail(i.id) }, i.toolName)),
            cell('Origin', i.origin),
            cell('Outcome', badge('Outcome', outcomeText(i), i.status === 'ok' ? 'ok' : 'bad')),
            cell('Duration', `${i.durationMs} ms`), cell('Queued', `${i.queueWaitMs} ms`), cell('Attempts', String(i.attempts)), cell('Started', when(i.startedAt))))))));
  }

  async function showDetail(invocationId) {
    try {
      const detail = await ctx.api('GET', `/api/sessions/${encodeURIComponent(selected)}/invocations/${encodeURIComponent(invocationId)}`);
      const inv = detail.invocation;
      render(detailBox, h('div', { class: 'card' },
        h('h3', { tabindex: '-1', id: 'invocation-detail-title' }, `Invocation ${inv.id}`),
        h('dl', {}, ...[['Tool', inv.toolName], ['Source', inv.sourceId ?? '—'], ['Origin', inv.origin], ['Outcome', outcomeText(inv)],
          ['Duration', `${inv.durationMs} ms`], ['Queued', `${inv.queueWaitMs} ms`], ['Cache', inv.cacheHit ? 'hit' : 'miss'], ['Attempts', String(inv.attempts)],
          ['Authorization', inv.authorizationId ?? 'none'], ['Size', inv.sizeBytes === null ? '—' : `${inv.sizeBytes} bytes`]].flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
        h('h4', {}, 'Arguments'), h('pre', { class: 'stored-arguments' }, json(detail.arguments)),
        h('h4', {}, 'Result'), h('pre', { class: 'stored-result' }, json(detail.result))));
      document.getElementById('invocation-detail-title').focus();
    } catch (error) {
      ctx.toast(error.message, 'bad');
    }
  }

  ctx.onSessions(() => void refresh().catch(() => {}));
  return {
    refresh,
    onEvent(event) {
      // A decided request means a call of that Session ran (or was refused): show its row.
      if (selected && event.sessionId === selected && event.type === 'permission_request.resolved') void loadInvocations().catch(() => {});
    },
  };
}

function outcomeText(invocation) {
  const code = invocation.errorCode && invocation.errorCode !== invocation.status ? ` (${invocation.errorCode})` : '';
  return `${invocation.status}${code}`;
}

/** A table cell that names its column, so narrow screens can show each row as a small card. */
function cell(label, content) {
  return h('td', { dataset: { label } }, content);
}
