export { CustomServers } from './customServers.js';
export { OAUTH_CALLBACK_PATH } from './customOAuth.js';
export { decideConnection } from './customServerView.js';
export { applySecretEdits } from './secretEdits.js';
export { type GatewayEnvironment } from './customTarget.js';
export { applyServerPatch, buildServerConfig, restoreRedacted } from './customServerEdits.js';
