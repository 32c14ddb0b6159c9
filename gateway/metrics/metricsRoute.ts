import type { RequestHandler } from 'express';
import type { PrometheusMetrics } from './gatewayMetrics.js';

/**
 * `GET /metrics`: the Prometheus text format with the registry's content type. Mount it behind
 * the admin bearer check; the labels hold only catalog names (source ids, tool ids, error codes).
 */
export function metricsRoute(metrics: PrometheusMetrics): RequestHandler {
  return (_req, res) => {
    void metrics.scrape().then(
      ({ contentType, text }) => res.status(200).set({ 'content-type': contentType, 'cache-control': 'no-store' }).send(text),
      // Same JSON error shape as every other route, never a stack.
      () => res.status(500).json({ error: { code: 'internal', message: 'The metrics could not be collected; see the gateway log.' } }),
    );
  };
}
