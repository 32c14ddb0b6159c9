export { GatewayError, aboutArgument } from './gatewayError.js';
export { isPlainObject } from './plainObject.js';
export { isPlainResultResponse, isPlainToolCall } from './plainRpcMessages.js';
export type { WireError } from './gatewayError.js';
export { systemClock, cancelledBy } from './clock.js';
export type { Clock } from './clock.js';
export { randomId, randomHex } from './ids.js';
export type { NewId } from './ids.js';
export { deferredLogger, silentLogger } from './logger.js';
export type { Logger } from './logger.js';
export type {
  ApprovalMode, AuthorizationBasis, InvocationCursor, InvocationIntent, InvocationOrigin, InvocationRecord, PermissionAuthorizationRecord, PermissionChannel,
  PermissionDecision, PermissionGrantRecord, PermissionRequestRecord, PermissionRequestStatus, ProjectRecord, SessionRecord,
} from './records.js';
export type {
  Cas, ConnectorSelectionReader, CustomServerStore, InvocationStore, OAuthLoginStore, PermissionResolution, PermissionStore, ProjectStore, StoredOAuthLogin,
  ReplicaStore, SessionStore, SettingsStore, Storage,
} from './ports.js';
export { canonicalJson } from './canonicalJson.js';
export { withFields } from './withFields.js';
export { CallDeadline } from './callDeadline.js';
export { ClockLimiter } from './clockLimiter.js';
export type { ClockLimiterOptions } from './clockLimiter.js';
export { QueueFull, checkSlotLimiterOptions } from './slotLimiter.js';
export type { AcquireOptions, LimiterFactory, SlotLimiter, SlotLimiterOptions } from './slotLimiter.js';
export type { SharedCache, SharedLiveState } from './sharedLiveState.js';
export { createRequestPacers } from './requestPacers.js';
export type { RequestPacer } from './requestPacers.js';
export { EventHub } from './eventHub.js';
export type { EventRelay, GatewayEvent, RelayedEvent } from './eventHub.js';
export { parseInput } from './parseInput.js';
export { sha256Bytes, sha256Hex } from './sha256.js';
export { MAX_ARGUMENT_DEPTH, MAX_RESULT_DEPTH, nestsDeeperThan } from './jsonDepth.js';
export { linkSignals } from './linkedSignal.js';
export { StoppableWork } from './stoppableWork.js';
export { requireSession } from './requireSession.js';
export type { ProcessGroupEntry, ProcessGroupRecord } from './processGroupRecord.js';
export { SecretScrubber, REDACTED, MIN_SECRET_CHARS } from './secretScrubber.js';
export type { ScrubbingStream } from './secretScrubber.js';
export { scrubbingLogger } from './scrubbingLogger.js';
export { BoundedLineReader, type LineSink } from './boundedLineReader.js';
export type {
  ArtifactPlanPatch, ArtifactPlanRecord, ArtifactPlanStatus, DownloadJobPatch, DownloadJobRecord, DownloadJobState, PlannedCandidate,
} from './artifactRecords.js';
export { TERMINAL_JOB_STATES } from './artifactRecords.js';
export type { ArtifactStore, PartialFile, SessionWorkspace, WorkspaceFile } from './artifactPorts.js';
export { MAX_WORKSPACE_NAME_BYTES } from './artifactPorts.js';
export { workspaceResourceUri, parseWorkspaceResourceUri } from './workspaceUris.js';
export type {
  ExtractionInput, ExtractionJobRecord, ExtractionJobStatus, ExtractionJobUpdate, PaperAcquisitionRecord,
} from './extractionRecords.js';
export { INTERRUPTED_ERROR_CODE } from './extractionStore.js';
export type { ExtractionStore } from './extractionStore.js';
export { compareInvocations, isAfterCursor, interruptedInvocation } from './invocationOrder.js';
export { sharedSchemaValidator } from './sharedSchemaValidator.js';
export { linearRegExp } from './linearRegExp.js';
export { CallsInFlight } from './callsInFlight.js';
export { boundedWait } from './boundedWait.js';
export { leaveOnAbort } from './leaveOnAbort.js';
