export { CustomServers, type CustomServersDeps } from './customServers.js';
export { type CustomServerView, type ConnectionState, decideConnection } from './customServerView.js';
export { type ConnectionTestResult, type ConnectionCheck, runConnectionTest } from './connectionTest.js';
export { type InspectResult } from './inspectTool.js';
export { applySecretEdits, redactedEntries } from './secretEdits.js';
export { resolveCustomTarget, type GatewayEnvironment } from './customTarget.js';
export { applyServerPatch, buildServerConfig, assertServerSet } from './customServerEdits.js';
