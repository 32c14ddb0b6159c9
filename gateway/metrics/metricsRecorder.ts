import type { EventHub } from '../core/index.js';

/** How one tool call ended, as the audit stage saw it; only catalog names, never agent-supplied text. */
export interface CallEnding {
  /** The resolved source id, or null when the call never resolved to a tool. */
  sourceId: string | null;
  /** The resolved tool id (the upstream's name), or null when unresolved. */
  toolId: string | null;
  /** `ok`, or the error code the client received (`cancelled` included). */
  outcome: string;
  /** Total time spent waiting for limiter slots, in ms; null when the call never reached the limiter. */
  queueWaitMs: number | null;
  /** The cache lookup: a hit, a miss, or none (not cacheable, or stopped before the cache). */
  cache: 'hit' | 'miss' | null;
}

/** Running and queued calls of one limiter (a source id or a shared limit group). */
export interface LimiterGauge {
  key: string;
  running: number;
  queued: number;
}

/**
 * What the gateway reports to its metrics. Counters and histograms are fed as things happen;
 * gauges are read from the given functions when the metrics are scraped.
 */
export interface GatewayMetrics {
  callEnded(call: CallEnding): void;
  /** A stdio/HTTP upstream connected again after its connection died. */
  upstreamRestarted(sourceId: string): void;
  /** One journal fsync took this long, in ms. */
  journalFsynced(ms: number): void;
  /** Follows permission requests on the hub (pending count, decision latency); returns the unsubscribe function. */
  watchApprovals(events: EventHub): () => void;
  /** Where the queue-depth gauge reads the limiters from at scrape time. */
  collectLimiters(read: () => readonly LimiterGauge[]): void;
  /** Where the sessions-open gauge reads the live MCP sessions from at scrape time. */
  collectSessions(read: () => number): void;
}

/** Records nothing: the runtime's default when no metrics are served (stdio without an HTTP listener). */
export const noopMetrics: GatewayMetrics = {
  callEnded: () => {},
  upstreamRestarted: () => {},
  journalFsynced: () => {},
  watchApprovals: () => () => {},
  collectLimiters: () => {},
  collectSessions: () => {},
};
