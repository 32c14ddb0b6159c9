import {
  isAfterCursor, type InvocationCursor, type InvocationIntent, type InvocationRecord, type PermissionAuthorizationRecord,
} from '../../gateway/core/index.js';
import type { AuditRecord } from './auditRecords.js';

/** What is written beside a sealed segment (`NNNNNNNN.idx.json`), so reads never scan it. */
export interface SegmentIndexFile {
  version: 1;
  segment: number;
  /** Rows whose completion line is in the segment. */
  rows: InvocationRecord[];
  /** Blob sha256 → [offset, length] of the line that carries it. */
  blobs: Record<string, [number, number]>;
  /** Intents still without a completion when the segment was sealed (from it or from earlier ones). */
  open: InvocationIntent[];
  lastSeq: number;
  /** Authorizations recorded in the segment (absent in indexes written before they were). */
  authorizations?: PermissionAuthorizationRecord[];
}

/**
 * One segment's rows and blob locations: the active segment's in memory (bounded by the segment
 * size), a sealed one's loaded from its index file when a read needs it.
 */
export class SegmentRows {
  readonly rows = new Map<string, InvocationRecord>();
  readonly blobs = new Map<string, [number, number]>();
  /** Authorizations recorded in this segment, in append order. */
  readonly authorizations: PermissionAuthorizationRecord[] = [];
  private readonly sessions = new Set<string>();
  lastSeq = 0;
  maxEndedAt = '';
  /**
   * The earliest end of its rows. Completions are appended as calls end, so every row of an older
   * segment ended (and started) no later than this: a page whose last row started after it is final.
   */
  minEndedAt = '';

  constructor(readonly segment: number) {}

  static fromIndex(file: SegmentIndexFile): SegmentRows {
    const rows = new SegmentRows(file.segment);
    for (const row of file.rows) rows.addRow(row);
    for (const [hash, place] of Object.entries(file.blobs)) rows.blobs.set(hash, place);
    rows.lastSeq = file.lastSeq;
    rows.authorizations.push(...(file.authorizations ?? []));
    return rows;
  }

  /** Takes in one line of this segment, at `offset` with `length` bytes. */
  addLine(record: AuditRecord, offset: number, length: number): void {
    this.lastSeq = Math.max(this.lastSeq, record.seq);
    if (record.kind === 'authorization') {
      this.authorizations.push(record.authorization);
      return;
    }
    if (record.kind === 'intent') {
      if (record.blob && record.intent.argumentsHash) this.blobs.set(record.intent.argumentsHash, [offset, length]);
      return;
    }
    this.addRow(record.row);
    if (record.blob && record.row.casHash) this.blobs.set(record.row.casHash, [offset, length]);
  }

  addRow(row: InvocationRecord): void {
    this.rows.set(row.id, row);
    this.sessions.add(row.sessionId);
    if (row.endedAt > this.maxEndedAt) this.maxEndedAt = row.endedAt;
    if (this.minEndedAt === '' || row.endedAt < this.minEndedAt) this.minEndedAt = row.endedAt;
  }

  /** The Session's rows after `before` (unsorted). */
  ofSession(sessionId: string, before: InvocationCursor | undefined): InvocationRecord[] {
    if (!this.sessions.has(sessionId)) return [];
    return [...this.rows.values()].filter((row) => row.sessionId === sessionId && isAfterCursor(row, before));
  }

  toIndex(open: InvocationIntent[]): SegmentIndexFile {
    return {
      version: 1, segment: this.segment, rows: [...this.rows.values()], blobs: Object.fromEntries(this.blobs), open, lastSeq: this.lastSeq,
      authorizations: this.authorizations,
    };
  }
}
