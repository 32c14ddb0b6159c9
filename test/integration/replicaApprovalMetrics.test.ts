import { describe, expect, it, vi } from 'vitest';
import type { EventHub } from '../../gateway/core/index.js';
import { createGatewayMetrics, type PrometheusMetrics } from '../../gateway/metrics/index.js';
import type { PermissionGate } from '../../gateway/permissions/index.js';
import { pendingRequests, type MemoryPermissions } from '../fixtures/permissionDoubles.js';
import { redisReplicaGates } from '../fixtures/redisReplicaGates.js';

/**
 * Approval metrics of two replicas sharing one permission store (the memory store stands in for
 * PostgreSQL) and one Redis events relay: the action waits on B, the human decides on A.
 */
const { replicas } = redisReplicaGates();

interface ReplicaGate {
  gate: PermissionGate;
  metrics: PrometheusMetrics;
}

/** The two replicas' gates, each with the approval metrics its event hub feeds. */
async function metered(): Promise<{ a: ReplicaGate; b: ReplicaGate; store: MemoryPermissions }> {
  const { a, b, events, store } = await replicas();
  const metricsOf = async (hub: EventHub) => {
    const metrics = await createGatewayMetrics();
    metrics.watchApprovals(hub);
    return metrics;
  };
  return { a: { gate: a, metrics: await metricsOf(events.a) }, b: { gate: b, metrics: await metricsOf(events.b) }, store };
}

/** The value of one sample line (`name{labels} value`), or 0 when the text has none. */
async function sample(metrics: PrometheusMetrics, series: string): Promise<number> {
  const line = (await metrics.scrape()).text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('approval metrics across replicas', () => {
  it('a request decided on another replica stops counting as pending where it waited, and its decision time is counted once', async () => {
    const { a, b, store } = await metered();
    const waiting = b.gate.authorize({
      sessionId: 'ses_perm', invocationId: 'inv_metrics', toolName: 'mcp__notes__write_note', action: { action: 'tool.call', resource: 'mcp__notes__write_note' },
      arguments: { text: 'hi' }, signal: new AbortController().signal,
    });
    const [request] = await pendingRequests(store, 1);
    expect(await sample(b.metrics, 'scigate_approvals_pending')).toBe(1);
    await a.gate.decide(request!.id, 'allow_once', { via: 'admin' });
    expect((await waiting).allowed).toBe(true);
    await vi.waitFor(async () => expect(await sample(b.metrics, 'scigate_approvals_pending')).toBe(0), { timeout: 10_000 });
    expect(await sample(a.metrics, 'scigate_approvals_pending')).toBe(0);
    const decided = async (replica: ReplicaGate) => sample(replica.metrics, 'scigate_approval_decision_seconds_count{status="allowed"}');
    expect((await decided(a)) + (await decided(b))).toBe(1);
  });
});
