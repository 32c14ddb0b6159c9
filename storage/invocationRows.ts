import type { InvocationRecord } from '../gateway/core/index.js';
import { flag, integer, nullableFlag, nullableInteger, nullableText, oneOf, rowMapper, text } from './rowMapper.js';

/**
 * The `invocations` table's mapping: PostgreSQL's audit (storage/postgres/pgInvocationStore.ts) and
 * the rows `scigate migrate` copies there. The embedded store keeps its audit in the audit log.
 */
export const invocationRows = rowMapper<InvocationRecord>('invocations', {
  id: text,
  sessionId: text,
  projectId: text,
  sourceId: nullableText,
  toolId: nullableText,
  toolName: text,
  origin: oneOf(['agent', 'inspector'], 'agent'),
  status: oneOf(['ok', 'error', 'cancelled', 'interrupted'], 'error'),
  errorCode: nullableText,
  retryable: nullableFlag,
  attempts: integer,
  cacheHit: flag,
  queueWaitMs: integer,
  durationMs: integer,
  sizeBytes: nullableInteger,
  casHash: nullableText,
  argumentsHash: nullableText,
  authorizationId: nullableText,
  startedAt: text,
  endedAt: text,
});
