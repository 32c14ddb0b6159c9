// The catalog's public surface: schemas and naming only. The built-in sources live in sources/ and
// are loaded by the registry, so importing an error code or a schema never loads a source.
export { isErrorCode } from './errorCodes.js';
export type { ErrorCode } from './errorCodes.js';
export { INVISIBLE_CHARS, boundText } from './boundText.js';
export { describeZodError } from './zodIssues.js';
export { parseSourceManifest, isHostAllowed, limitOverridesSchema } from './manifest.js';
export type { SourceManifest, SourceLimits, LimitOverrides, RetryPolicy } from './manifest.js';
export { mcpToolResultJsonSchema, governedOutputJsonSchema, resultOrErrorJsonSchema } from './resultEnvelope.js';
export type { JsonValue, Citation, McpRecord, ArtifactCandidate, McpToolResult } from './resultEnvelope.js';
export { governedToolName, readableNamePart, MAX_TOOL_NAME_CHARS } from './toolNaming.js';
export type { ToolPrefix } from './toolNaming.js';
export { customServerConfigSchema, customServerFileSchema, serverNameKey, MAX_CUSTOM_SERVERS } from './customServerConfig.js';
export { decideCustomUrl } from './customServerUrlPolicy.js';
export type { CustomUrlPolicy } from './customServerUrlPolicy.js';
export type { CustomServerConfig, CustomTransport, RemoteServerConfig, CustomAuth, OAuthSettings } from './customServerConfig.js';
export { isSecureOrLoopback } from './customServerConfig.js';
export { createCustomServerSchema, patchCustomServerSchema, acceptToolsSchema, inspectToolSchema, oauthStartSchema } from './customServerRequests.js';
export type { CreateCustomServer, PatchCustomServer, AcceptToolsRequest, InspectToolRequest, SecretEdit, CustomAuthRequest, OAuthStartRequest } from './customServerRequests.js';
export { importServersSchema, importToCreateRequests } from './customServerImport.js';
export { importRepeats } from './importRepeats.js';
export type { ImportServers } from './customServerImport.js';
export { customSourceManifest } from './customSourceManifest.js';
export { sourceLabel } from './sourceLabel.js';
export { CUSTOM_SOURCE_LIMITS, effectiveCustomLimits, mergeCustomLimits, customServerLimitsSchema } from './customServerLimits.js';
export type { CustomServerLimits, CustomServerLimitsEdit, EffectiveCustomLimits } from './customServerLimits.js';
export { createProjectSchema, patchProjectSchema, patchSettingsSchema, projectIdSchema, sessionPatchSchema } from './connectorSelection.js';
export type { CreateProject, PatchProject } from './connectorSelection.js';
export { parseRetryAfterMs, MAX_RETRY_AFTER_MS } from './retryAfter.js';
