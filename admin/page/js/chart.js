import { h, s } from './dom.js';

const BUCKETS = 12;
const BUCKET_MS = 5 * 60 * 1000;

/**
 * Calls, errors and mean latency per 5-minute bucket over the last hour for one source, as a small
 * SVG (bars: calls, with the failed part hatched; line: latency) plus the same numbers in words,
 * so nothing depends on colour or on seeing the chart.
 */
export function sourceChart(sourceId, invocations, now = Date.now()) {
  const start = now - BUCKETS * BUCKET_MS;
  const buckets = Array.from({ length: BUCKETS }, () => ({ calls: 0, errors: 0, latency: 0 }));
  for (const inv of invocations) {
    const at = Date.parse(inv.startedAt);
    if (!(at >= start && at <= now)) continue;
    const b = buckets[Math.min(BUCKETS - 1, Math.floor((at - start) / BUCKET_MS))];
    b.calls += 1;
    if (inv.status !== 'ok') b.errors += 1;
    b.latency += inv.durationMs;
  }
  const calls = buckets.reduce((n, b) => n + b.calls, 0);
  const errors = buckets.reduce((n, b) => n + b.errors, 0);
  const meanMs = calls ? Math.round(buckets.reduce((n, b) => n + b.latency, 0) / calls) : 0;
  const maxCalls = Math.max(1, ...buckets.map((b) => b.calls));
  const maxLatency = Math.max(1, ...buckets.map((b) => (b.calls ? b.latency / b.calls : 0)));
  const width = 240;
  const height = 60;
  const barW = width / BUCKETS;
  const summary = `${sourceId}: ${calls} call${calls === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}, mean latency ${meanMs} ms in the last hour`;
  const points = buckets.map((b, i) => (b.calls ? `${i * barW + barW / 2},${height - ((b.latency / b.calls) / maxLatency) * (height - 4) - 2}` : null)).filter(Boolean);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': summary, class: 'chart' },
    s('title', {}, summary),
    s('defs', {}, s('pattern', { id: `hatch-${sourceId}`, width: 4, height: 4, patternUnits: 'userSpaceOnUse' },
      s('path', { d: 'M0,4 L4,0', class: 'hatch' }))),
    ...buckets.flatMap((b, i) => {
      const total = (b.calls / maxCalls) * (height - 4);
      const failed = (b.errors / maxCalls) * (height - 4);
      return [
        s('rect', { x: i * barW + 1, y: height - total, width: barW - 2, height: total, class: 'bar-calls' }),
        b.errors ? s('rect', { x: i * barW + 1, y: height - failed, width: barW - 2, height: failed, class: 'bar-errors', fill: `url(#hatch-${sourceId})` }) : null,
      ].filter(Boolean);
    }),
    points.length > 1 ? s('polyline', { points: points.join(' '), class: 'latency' }) : null);
  return h('figure', { class: 'source-chart', dataset: { sourceId } }, svg, h('figcaption', {}, summary));
}
