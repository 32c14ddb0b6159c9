import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventHub, GatewayEvent, PermissionRequestRecord } from '../core/index.js';
import type { CallEnding, GatewayMetrics, LimiterGauge } from './metricsRecorder.js';

type PromClient = typeof import('prom-client');

/** The gateway's metrics plus the Prometheus text of them. */
export interface PrometheusMetrics extends GatewayMetrics {
  /** The exposition text and the content type to send it with. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

// Seconds. Queue waits run from nothing to the queue timeout; humans decide in seconds to
// minutes (15 min approval timeout by default); an fsync takes well under a millisecond to seconds.
const QUEUE_WAIT_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const DECISION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 900, 1800];
const FSYNC_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * Builds the metrics on a registry of their own (never prom-client's global one, so two gateways in
 * one process — tests — never share counts). prom-client is imported here, on demand, so a gateway
 * that serves no metrics (`scigate stdio`) does not pay for loading it.
 */
export async function createGatewayMetrics(): Promise<PrometheusMetrics> {
  const prom: PromClient = await import('prom-client');
  return new Metrics(prom, new prom.Registry());
}

class Metrics implements PrometheusMetrics {
  private readonly calls: Counter<'sourceId' | 'tool' | 'outcome'>;
  private readonly queueWait: Histogram<'sourceId'>;
  private readonly cacheHits: Counter<'sourceId'>;
  private readonly cacheMisses: Counter<'sourceId'>;
  private readonly decisions: Histogram<'status'>;
  private readonly restarts: Counter<'sourceId'>;
  private readonly fsyncs: Histogram;
  /** Pending permission requests by id: created seen, resolved not yet. */
  private readonly pending = new Set<string>();
  private readLimiters: () => readonly LimiterGauge[] = () => [];
  private readSessions: () => number = () => 0;

  constructor(prom: PromClient, private readonly registry: Registry) {
    const registers = [registry];
    this.calls = new prom.Counter({
      name: 'scigate_tool_calls_total', help: 'Tool calls by source, tool and outcome (ok, or the error code the client received).',
      labelNames: ['sourceId', 'tool', 'outcome'], registers,
    });
    this.queueWait = new prom.Histogram({
      name: 'scigate_queue_wait_seconds', help: 'Time a call waited for limiter slots, all its attempts together.',
      labelNames: ['sourceId'], buckets: QUEUE_WAIT_BUCKETS, registers,
    });
    const ratio = 'Hit ratio: rate(scigate_cache_hits_total[5m]) / (rate(scigate_cache_hits_total[5m]) + rate(scigate_cache_misses_total[5m])).';
    this.cacheHits = new prom.Counter({ name: 'scigate_cache_hits_total', help: `Cacheable calls answered from the cache. ${ratio}`, labelNames: ['sourceId'], registers });
    this.cacheMisses = new prom.Counter({ name: 'scigate_cache_misses_total', help: `Cacheable calls that went upstream. ${ratio}`, labelNames: ['sourceId'], registers });
    this.decisions = new prom.Histogram({
      name: 'scigate_approval_decision_seconds', help: 'Time from a permission request to its end, by how it ended (allowed, denied, expired, cancelled).',
      labelNames: ['status'], buckets: DECISION_BUCKETS, registers,
    });
    this.restarts = new prom.Counter({ name: 'scigate_upstream_restarts_total', help: 'Upstream connections made again after one died.', labelNames: ['sourceId'], registers });
    this.fsyncs = new prom.Histogram({ name: 'scigate_journal_fsync_seconds', help: 'Latency of one durable journal flush, its O_DSYNC write or write + fdatasync (group commit: one per batch of writes).', buckets: FSYNC_BUCKETS, registers });
    this.addGauges(prom);
  }

  /** Gauges read at scrape time, so they never go stale between calls. */
  private addGauges(prom: PromClient): void {
    const registers = [this.registry];
    const metrics = this;
    new prom.Gauge({
      name: 'scigate_queue_calls', help: 'Calls holding (running) or waiting for (queued) a slot, per limiter (a source or a shared limit group).',
      labelNames: ['limiter', 'state'], registers,
      collect(this: Gauge<'limiter' | 'state'>) {
        this.reset();
        for (const limiter of metrics.readLimiters()) {
          this.set({ limiter: limiter.key, state: 'running' }, limiter.running);
          this.set({ limiter: limiter.key, state: 'queued' }, limiter.queued);
        }
      },
    });
    new prom.Gauge({
      name: 'scigate_approvals_pending', help: 'Permission requests waiting for a human decision.', registers,
      collect(this: Gauge) { this.set(metrics.pending.size); },
    });
    new prom.Gauge({
      name: 'scigate_sessions_open', help: 'Open MCP sessions on the HTTP listener.', registers,
      collect(this: Gauge) { this.set(metrics.readSessions()); },
    });
  }

  callEnded(call: CallEnding): void {
    // Unresolved calls get fixed labels: the name an agent sent is neither bounded nor trusted.
    const sourceId = call.sourceId ?? 'none';
    this.calls.inc({ sourceId, tool: call.toolId ?? 'unresolved', outcome: call.outcome });
    if (call.queueWaitMs !== null) this.queueWait.observe({ sourceId }, call.queueWaitMs / 1000);
    if (call.cache === 'hit') this.cacheHits.inc({ sourceId });
    if (call.cache === 'miss') this.cacheMisses.inc({ sourceId });
  }

  upstreamRestarted(sourceId: string): void {
    this.restarts.inc({ sourceId });
  }

  journalFsynced(ms: number): void {
    this.fsyncs.observe(ms / 1000);
  }

  watchApprovals(events: EventHub): () => void {
    return events.subscribe((event) => this.onEvent(event));
  }

  collectLimiters(read: () => readonly LimiterGauge[]): void {
    this.readLimiters = read;
  }

  collectSessions(read: () => number): void {
    this.readSessions = read;
  }

  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private onEvent(event: GatewayEvent): void {
    const request = event.data as PermissionRequestRecord | undefined;
    if (!request) return;
    // A request counts where its action waits (the replica that created it). Its resolution is
    // taken from any replica: a human may decide on another one, which announces it only there.
    if (event.type === 'permission_request.created' && !event.replica) this.pending.add(request.id);
    if (event.type !== 'permission_request.resolved' || !this.pending.delete(request.id)) return;
    const waitedMs = Date.parse(request.resolvedAt ?? '') - Date.parse(request.createdAt);
    if (Number.isFinite(waitedMs)) this.decisions.observe({ status: request.status }, Math.max(0, waitedMs) / 1000);
  }
}
