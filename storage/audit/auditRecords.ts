import type { InvocationIntent, InvocationRecord, PermissionAuthorizationRecord } from '../../gateway/core/index.js';

/**
 * The audit log's two kinds of line. A blob (canonical arguments, stored result) travels inside its
 * record as UTF-8 text, or as base64 in the rare case its bytes are not valid UTF-8, so that one
 * append (and one sync) carries the row and its bytes together.
 */
export type AuditRecord = IntentRecord | CompletionRecord | AuthorizationRecord;

/** A call started: who called what, with which arguments. */
export interface IntentRecord {
  seq: number;
  kind: 'intent';
  intent: InvocationIntent;
  blob: EncodedBlob | null;
}

/** A call ended: its whole row (so it stands alone), with its result or error. */
export interface CompletionRecord {
  seq: number;
  kind: 'completion';
  row: InvocationRecord;
  blob: EncodedBlob | null;
}

/**
 * A dangerous action authorized without a PermissionRequest (always_allow, a Grant hit, an Inspector
 * call): the single-use PermissionAuthorization its Invocation references, group-committed with the
 * call's own lines instead of a journaled database row of its own.
 */
export interface AuthorizationRecord {
  seq: number;
  kind: 'authorization';
  authorization: PermissionAuthorizationRecord;
}

/** Bytes as text when they are UTF-8 (`t`), else base64 (`b`). */
export type EncodedBlob = { t: string } | { b: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeBlob(bytes: Uint8Array): EncodedBlob {
  try {
    return { t: strictUtf8.decode(bytes) };
  } catch {
    return { b: Buffer.from(bytes).toString('base64') };
  }
}

export function decodeBlob(blob: EncodedBlob): Buffer {
  return 't' in blob ? Buffer.from(blob.t, 'utf8') : Buffer.from(blob.b, 'base64');
}

/** Where a record's line lies: segment number, byte offset and length. */
export interface LineLocation {
  segment: number;
  offset: number;
  length: number;
}

export function isAuditRecord(value: unknown): value is AuditRecord {
  const record = value as { seq?: unknown; kind?: unknown; intent?: { id?: unknown }; row?: { id?: unknown }; authorization?: { id?: unknown } } | null;
  if (typeof record !== 'object' || record === null || !Number.isInteger(record.seq)) return false;
  if (record.kind === 'intent') return typeof record.intent?.id === 'string';
  if (record.kind === 'authorization') return typeof record.authorization?.id === 'string';
  return record.kind === 'completion' && typeof record.row?.id === 'string';
}

/** The id of the Invocation a record is about. */
export function idOf(record: AuditRecord): string {
  if (record.kind === 'intent') return record.intent.id;
  return record.kind === 'completion' ? record.row.id : record.authorization.invocationId;
}
