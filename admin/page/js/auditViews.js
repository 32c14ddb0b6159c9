import { badge, h, json, when } from './dom.js';
import { sourceChart } from './chart.js';
import { byteSize } from './labels.js';

/** The Sessions table: project, client, approval mode, call count; `onSelect(id)` opens one. */
export function sessionsTable(sessions, { recent, selected, onSelect }) {
  return h('table', {}, h('caption', { class: 'visually-hidden' }, 'Sessions'),
    headRow(['Session', 'Project', 'Client', 'Approval mode', 'Calls', 'Started', 'State']),
    h('tbody', {}, ...sessions.map((s) => h('tr', { class: s.id === selected ? 'selected' : '' },
      cell('Session', h('button', { type: 'button', class: 'link', 'aria-pressed': s.id === selected ? 'true' : 'false', onclick: () => onSelect(s.id) }, s.id.slice(0, 16))),
      cell('Project', s.projectId), cell('Client', `${s.clientName ?? '—'} ${s.clientVersion ?? ''}`),
      cell('Approval mode', s.approvalMode === 'always_allow' ? 'always allow' : 'ask for dangerous'),
      cell('Calls', callCount(recent.get(s.id))),
      cell('Started', when(s.createdAt)), cell('State', s.endedAt ? `ended ${when(s.endedAt)}` : 'active')))));
}

/** A Session's call count; "N+" when the page stopped counting (see audit.js). */
function callCount(recent) {
  if (!recent) return '—';
  return `${recent.invocations.length}${recent.more ? '+' : ''}`;
}

/** One Session's invocations; `onShow(id)` opens one's detail. */
export function invocationsTable(invocations, onShow) {
  return h('div', { class: 'table-wrap' }, h('table', {}, h('caption', { class: 'visually-hidden' }, 'Invocations'),
    headRow(['Tool', 'Origin', 'Outcome', 'Duration', 'Queued', 'Attempts', 'Started']),
    h('tbody', {}, ...invocations.map((i) => h('tr', { dataset: { invocationId: i.id } },
      cell('Tool', h('button', { type: 'button', class: 'link', onclick: () => onShow(i.id) }, i.toolName)),
      cell('Origin', i.origin),
      cell('Outcome', badge('Outcome', outcomeText(i), i.status === 'ok' ? 'ok' : 'bad')),
      cell('Duration', `${i.durationMs} ms`), cell('Queued', `${i.queueWaitMs} ms`), cell('Attempts', String(i.attempts)), cell('Started', when(i.startedAt)))))));
}

/** One invocation as stored: its audit facts, arguments and result. */
export function invocationDetail(detail) {
  const inv = detail.invocation;
  const facts = [['Tool', inv.toolName], ['Source', inv.sourceId ?? '—'], ['Origin', inv.origin], ['Outcome', outcomeText(inv)],
    ['Duration', `${inv.durationMs} ms`], ['Queued', `${inv.queueWaitMs} ms`], ['Cache', inv.cacheHit ? 'hit' : 'miss'], ['Attempts', String(inv.attempts)],
    ['Authorization', inv.authorizationId ?? 'none'], ['Size', inv.sizeBytes === null ? '—' : byteSize(inv.sizeBytes)]];
  return h('div', { class: 'card' },
    h('h3', { tabindex: '-1', id: 'invocation-detail-title' }, `Invocation ${inv.id}`),
    h('dl', {}, ...facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    h('h4', {}, 'Arguments'), h('pre', { class: 'stored-arguments' }, json(detail.arguments)),
    h('h4', {}, 'Result'), h('pre', { class: 'stored-result' }, json(detail.result)));
}

/** One chart per source over the last hour, and a legend in words. */
export function sourceCharts(invocations) {
  const bySource = new Map();
  for (const inv of invocations) {
    const key = inv.sourceId ?? 'unresolved';
    if (!bySource.has(key)) bySource.set(key, []);
    bySource.get(key).push(inv);
  }
  if (bySource.size === 0) return [h('p', { class: 'muted' }, 'No calls in the last hour.')];
  return [...[...bySource].map(([id, list]) => sourceChart(id, list)),
    h('p', { class: 'chart-legend' }, 'Each chart: 5-minute bars of calls (hatched part: errors), dashed line: mean latency.')];
}

function outcomeText(invocation) {
  const code = invocation.errorCode && invocation.errorCode !== invocation.status ? ` (${invocation.errorCode})` : '';
  return `${invocation.status}${code}`;
}

function headRow(titles) {
  return h('thead', {}, h('tr', {}, ...titles.map((t) => h('th', { scope: 'col' }, t))));
}

/** A table cell that names its column, so narrow screens can show each row as a small card. */
function cell(label, content) {
  return h('td', { dataset: { label } }, content);
}
