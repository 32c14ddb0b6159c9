export { createBroker, pipelineStages, type Broker, type BrokerDeps } from './createBroker.js';
export { compose, newCallAudit, type ToolCall, type ToolOutcome, type Stage, type Handler, type CallAudit } from './toolCall.js';
export { verifyEnvelope } from './envelopeValidator.js';
export { SourceLimiters, type LimiterState } from './sourceLimiters.js';
export { delayMs } from './stages/withRetry.js';
