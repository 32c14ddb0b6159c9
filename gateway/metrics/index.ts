export { noopMetrics } from './metricsRecorder.js';
export type { CallEnding, GatewayMetrics, LimiterGauge } from './metricsRecorder.js';
export { createGatewayMetrics } from './gatewayMetrics.js';
export type { PrometheusMetrics } from './gatewayMetrics.js';
export { metricsRoute } from './metricsRoute.js';
