import type { InvocationCursor, InvocationRecord } from './records.js';

/**
 * The order every InvocationStore lists rows in: newest start first, ties by id ascending. Shared
 * by the adapters that sort in code, so pages and cursors agree across them.
 */
export function compareInvocations(a: Pick<InvocationRecord, 'startedAt' | 'id'>, b: Pick<InvocationRecord, 'startedAt' | 'id'>): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** True when `row` comes after `cursor` in that order (so it belongs to a later page). */
export function isAfterCursor(row: Pick<InvocationRecord, 'startedAt' | 'id'>, cursor: InvocationCursor | undefined): boolean {
  return !cursor || compareInvocations(row, cursor) > 0;
}

/** The row an interrupted intent becomes (start-up after a crash). */
export function interruptedInvocation(intent: Pick<InvocationRecord, 'id' | 'sessionId' | 'projectId' | 'toolName' | 'origin' | 'argumentsHash' | 'startedAt'>, at: string): InvocationRecord {
  return {
    ...intent, sourceId: null, toolId: null, status: 'interrupted', errorCode: 'interrupted', retryable: null, attempts: 0, cacheHit: false,
    queueWaitMs: 0, durationMs: Math.max(0, Date.parse(at) - Date.parse(intent.startedAt)), sizeBytes: null, casHash: null, authorizationId: null, endedAt: at,
  };
}
