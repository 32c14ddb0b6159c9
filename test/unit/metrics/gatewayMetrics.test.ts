import { describe, expect, it } from 'vitest';
import { EventHub, type PermissionRequestRecord } from '../../../gateway/core/index.js';
import { createGatewayMetrics } from '../../../gateway/metrics/index.js';

/** The value of one sample line (`name{labels} value`), or undefined when the text has no such line. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const request = (id: string, over: Partial<PermissionRequestRecord> = {}) =>
  ({ id, status: 'pending', createdAt: '2026-01-01T00:00:00.000Z', resolvedAt: null, ...over }) as PermissionRequestRecord;

describe('gateway metrics', () => {
  it('counts calls by source, tool and outcome, and cache hits and misses, in the Prometheus text format', async () => {
    const metrics = await createGatewayMetrics();
    metrics.callEnded({ sourceId: 'arxiv', toolId: 'search', outcome: 'ok', queueWaitMs: 120, cache: 'miss' });
    metrics.callEnded({ sourceId: 'arxiv', toolId: 'search', outcome: 'ok', queueWaitMs: null, cache: 'hit' });
    metrics.callEnded({ sourceId: 'arxiv', toolId: 'search', outcome: 'queue_timeout', queueWaitMs: 30_000, cache: 'miss' });
    metrics.callEnded({ sourceId: null, toolId: null, outcome: 'tool_unavailable', queueWaitMs: null, cache: null });
    const { text, contentType } = await metrics.scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'scigate_tool_calls_total{sourceId="arxiv",tool="search",outcome="ok"}')).toBe(2);
    expect(sample(text, 'scigate_tool_calls_total{sourceId="arxiv",tool="search",outcome="queue_timeout"}')).toBe(1);
    expect(sample(text, 'scigate_tool_calls_total{sourceId="none",tool="unresolved",outcome="tool_unavailable"}')).toBe(1);
    expect(sample(text, 'scigate_cache_hits_total{sourceId="arxiv"}')).toBe(1);
    expect(sample(text, 'scigate_cache_misses_total{sourceId="arxiv"}')).toBe(2);
    expect(text).toContain('# HELP scigate_cache_hits_total');
    expect(text).toMatch(/# HELP scigate_cache_hits_total .*Hit ratio: rate\(scigate_cache_hits_total/);
    // Only the two calls that reached the limiter: 0.12 s and 30 s.
    expect(sample(text, 'scigate_queue_wait_seconds_count{sourceId="arxiv"}')).toBe(2);
    expect(sample(text, 'scigate_queue_wait_seconds_sum{sourceId="arxiv"}')).toBeCloseTo(30.12);
    expect(sample(text, 'scigate_queue_wait_seconds_bucket{le="0.25",sourceId="arxiv"}')).toBe(1);
  });

  it('reads the gauges at scrape time: limiters, sessions, pending approvals', async () => {
    const metrics = await createGatewayMetrics();
    let limiters = [{ key: 'ncbi', running: 2, queued: 5 }];
    let sessions = 3;
    metrics.collectLimiters(() => limiters);
    metrics.collectSessions(() => sessions);
    const first = (await metrics.scrape()).text;
    expect(sample(first, 'scigate_queue_calls{limiter="ncbi",state="running"}')).toBe(2);
    expect(sample(first, 'scigate_queue_calls{limiter="ncbi",state="queued"}')).toBe(5);
    expect(sample(first, 'scigate_sessions_open')).toBe(3);
    limiters = [{ key: 'arxiv', running: 1, queued: 0 }];
    sessions = 0;
    const second = (await metrics.scrape()).text;
    expect(sample(second, 'scigate_queue_calls{limiter="ncbi",state="running"}')).toBeUndefined();
    expect(sample(second, 'scigate_queue_calls{limiter="arxiv",state="running"}')).toBe(1);
    expect(sample(second, 'scigate_sessions_open')).toBe(0);
  });

  it('follows permission requests on the event hub: pending count and decision latency', async () => {
    const metrics = await createGatewayMetrics();
    const events = new EventHub();
    const unsubscribe = metrics.watchApprovals(events);
    events.publish('permission_request.created', 'ses_1', request('preq_1'));
    events.publish('permission_request.created', 'ses_1', request('preq_2'));
    expect(sample((await metrics.scrape()).text, 'scigate_approvals_pending')).toBe(2);
    events.publish('permission_request.resolved', 'ses_1', request('preq_1', { status: 'allowed', resolvedAt: '2026-01-01T00:00:42.000Z' }));
    // A resolution seen twice (or one never seen created) is not counted again.
    events.publish('permission_request.resolved', 'ses_1', request('preq_1', { status: 'allowed', resolvedAt: '2026-01-01T00:01:00.000Z' }));
    const text = (await metrics.scrape()).text;
    expect(sample(text, 'scigate_approvals_pending')).toBe(1);
    expect(sample(text, 'scigate_approval_decision_seconds_count{status="allowed"}')).toBe(1);
    expect(sample(text, 'scigate_approval_decision_seconds_sum{status="allowed"}')).toBe(42);
    unsubscribe();
    expect(events.subscriberCount).toBe(0);
  });

  it('counts upstream restarts and journal fsync latency, and two gateways never share counts', async () => {
    const [metrics, other] = [await createGatewayMetrics(), await createGatewayMetrics()];
    metrics.upstreamRestarted('my-server');
    metrics.upstreamRestarted('my-server');
    metrics.journalFsynced(2);
    const text = (await metrics.scrape()).text;
    expect(sample(text, 'scigate_upstream_restarts_total{sourceId="my-server"}')).toBe(2);
    expect(sample(text, 'scigate_journal_fsync_seconds_count')).toBe(1);
    expect(sample(text, 'scigate_journal_fsync_seconds_bucket{le="0.0025"}')).toBe(1);
    expect(sample(text, 'scigate_journal_fsync_seconds_bucket{le="0.001"}')).toBe(0);
    const untouched = (await other.scrape()).text;
    expect(sample(untouched, 'scigate_upstream_restarts_total{sourceId="my-server"}')).toBeUndefined();
    expect(sample(untouched, 'scigate_journal_fsync_seconds_count')).toBe(0);
  });
});
