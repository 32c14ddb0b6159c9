// The gateway's surface for admin/ and the composition root (gateway/main.ts). Inside gateway/ and in
// tests, import the folder you need (gateway/core/index.js, …): this file loads every gateway folder.
export { GatewayError, aboutArgument, EventHub, SecretScrubber, createRequestPacers, parseInput, randomId, requireSession, scrubbingLogger, systemClock } from './core/index.js';
export type { Cas, Clock, GatewayEvent, InvocationStore, Logger, PermissionRequestStatus, ProcessGroupRecord, SessionStore, SharedLiveState } from './core/index.js';
export { workspaceResourceUri } from './core/index.js';
export type { ArtifactStore, SessionWorkspace } from './core/index.js';
export { mirroredUrl, type ArtifactDownloads } from './artifacts/index.js';
export { DEFAULT_EXTRACTION_LIMITS, resolveExtractionLimits } from './extraction/index.js';
export type { ExtractionLimits, PaperExtractions } from './extraction/index.js';
export type { ExtractionStore } from './core/index.js';
export { SourceRegistry } from './registry/index.js';
export type { SourceEntry } from './registry/index.js';
export type { Broker } from './broker/index.js';
export { killGroup, liveChildren, reapLeftoverGroups } from './upstream/index.js';
export {
  answerClientErrorsAsJson, createMcpHttpRouter, createMcpHttpEdge, downstreamHandlers, requestLog, requireAllowedHost, requireBearer, jsonBody, fromHttpError, sendHttpError, LOOPBACK_HOSTS,
} from './listener/index.js';
export type { CurrentToken, SessionLimits, WithRawBody } from './listener/index.js';
export { parseDecisionBody } from './permissions/index.js';
export type { PermissionGate } from './permissions/index.js';
export { parseCommandLine, UsageError } from './config/index.js';
export { checkProviderUrls, sourceChildEnv, sourceDepsFromEnv, sourceLimitsFlag } from './sourceSettings/index.js';
export type { FlagValues } from './config/index.js';
export { createGatewayMetrics, metricsRoute } from './metrics/index.js';
export { createGatewayRuntime } from './runtime.js';
export type { GatewayRuntime, RuntimeOptions } from './runtime.js';
export type { CustomServers } from './custom/index.js';
export { OAUTH_CALLBACK_PATH } from './custom/index.js';
export type { ConnectorSelection } from './selection/index.js';
