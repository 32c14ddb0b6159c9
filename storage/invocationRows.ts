import type { InvocationRecord } from '../gateway/core/index.js';
import { flag, integer, nullableFlag, nullableInteger, nullableText, oneOf, rowMapper, text } from './rowMapper.js';

/**
 * The `invocations` table's mapping: PostgreSQL's audit (storage/postgres/pgInvocationStore.ts), the
 * rows `scigate migrate` copies there, and the rows an older embedded store kept in its database
 * (storage/audit/legacyInvocations.ts moves them into the audit log).
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
