import { LRUCache } from 'lru-cache';
import type { InvocationIntent, InvocationRecord, Logger, PermissionAuthorizationRecord } from '../../gateway/core/index.js';
import type { AuditRecord } from './auditRecords.js';
import { readBlob, readIndex, removeSegment, rowsFromScan, scanSegment, writeIndex } from './segmentFiles.js';
import { SegmentRows } from './segmentRows.js';

export interface SealedSegmentsOptions {
  /** The directory of the segments (created 0700). */
  dir: string;
  log: Logger;
  now?: () => Date;
  /** Sealed segments whose newest row ended longer ago than this are deleted (default: kept). */
  retentionDays?: number;
}

/**
 * The audit log's sealed segments: their numbers, their rows read from index files when a query
 * reaches them (the two newest cached), the index writes of newly sealed ones, and retention. Only
 * the active segment lives in memory (AuditLog); this is the history behind it.
 */
export class SealedSegments {
  /** Segments sealed whose index file is still being written: read from memory until then. */
  private readonly sealing = new Map<number, SegmentRows>();
  /** Index writes of sealed segments (and retention after them), in order. */
  private indexing: Promise<void> = Promise.resolve();
  private readonly cache = new LRUCache<number, SegmentRows>({ max: 2 });

  /** `numbers`: the sealed segments found at start, ascending. */
  constructor(
    private readonly options: SealedSegmentsOptions,
    private readonly numbers: number[],
  ) {}

  /** Sealed segment numbers, newest first. */
  newestFirst(): number[] {
    return [...this.numbers].reverse();
  }

  /** A sealed segment's rows: cached, else from its index file, else rebuilt by scanning it. */
  async rows(segment: number): Promise<SegmentRows> {
    const cached = this.sealing.get(segment) ?? this.cache.get(segment);
    if (cached) return cached;
    const index = await readIndex(this.options.dir, segment);
    const rows = index ? SegmentRows.fromIndex(index) : await rowsFromScan(this.options.dir, segment);
    this.cache.set(segment, rows);
    return rows;
  }

  /** The newest sealed row with this id. */
  async row(id: string): Promise<InvocationRecord | undefined> {
    for (const segment of this.newestFirst()) {
      const found = (await this.rows(segment)).rows.get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** A Session's authorizations in the sealed segments, oldest first. */
  async authorizationsOf(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    const found: PermissionAuthorizationRecord[] = [];
    for (const segment of this.numbers) found.push(...(await this.rows(segment)).authorizations.filter((a) => a.sessionId === sessionId));
    return found;
  }

  /** A blob a sealed segment holds, newest first. */
  async blob(hash: string): Promise<Buffer | undefined> {
    for (const segment of this.newestFirst()) {
      const place = (await this.rows(segment)).blobs.get(hash);
      const bytes = place && (await readBlob(this.options.dir, segment, place, hash));
      if (bytes) return bytes;
    }
    return undefined;
  }

  /** The newest sealed segment's last sequence number (0 when none). */
  async lastSeq(): Promise<number> {
    const newest = this.numbers.at(-1);
    return newest === undefined ? 0 : (await this.rows(newest)).lastSeq;
  }

  /** A segment just sealed with the intents still open after it: its index is written in the background. */
  add(segment: SegmentRows, open: InvocationIntent[]): void {
    this.numbers.push(segment.segment);
    this.sealing.set(segment.segment, segment);
    this.indexing = this.indexing.then(() => this.finishSeal(segment, open));
  }

  /** Resolves once the sealed segments' index files are written. */
  async indexed(): Promise<void> {
    await this.indexing;
  }

  /** Deletes sealed segments whose newest row ended before the retention window. */
  async applyRetention(): Promise<void> {
    const days = this.options.retentionDays;
    if (days === undefined) return;
    const cutoff = new Date((this.options.now?.() ?? new Date()).getTime() - days * 86_400_000).toISOString();
    // The newest sealed segment stays: its index carries the open intents a start-up needs.
    while (this.numbers.length > 1) {
      const oldest = this.numbers[0]!;
      const rows = await this.rows(oldest);
      if (rows.maxEndedAt === '' || rows.maxEndedAt >= cutoff) break;
      this.numbers.shift();
      this.cache.delete(oldest);
      await removeSegment(this.options.dir, oldest);
      this.options.log.info({ segment: oldest, endedBefore: cutoff }, 'audit segment past retention deleted');
    }
  }

  /**
   * The intents still open after the sealed segments: the newest index's list, brought forward
   * through any sealed segment whose index a crash kept from being written (those are indexed now).
   */
  async openIntents(): Promise<Map<string, InvocationIntent>> {
    const { dir, log } = this.options;
    const open = new Map<string, InvocationIntent>();
    let from = this.numbers.length;
    let base: InvocationIntent[] = [];
    while (from > 0) {
      const index = await readIndex(dir, this.numbers[from - 1]!);
      if (index) {
        base = index.open;
        break;
      }
      from -= 1;
    }
    for (const intent of base) open.set(intent.id, intent);
    for (const segment of this.numbers.slice(from)) {
      const rows = new SegmentRows(segment);
      for (const { record, offset, length } of await scanSegment(dir, segment)) {
        rows.addLine(record, offset, length);
        applyToOpen(open, record);
      }
      await writeIndex(dir, rows.toIndex([...open.values()])).catch((error: unknown) => {
        log.error({ err: error, segment }, 'could not write an audit segment index; it is scanned when read');
      });
      log.warn({ segment }, 'audit segment without an index (a stop while sealing it) was read through');
    }
    return open;
  }

  private async finishSeal(segment: SegmentRows, open: InvocationIntent[]): Promise<void> {
    try {
      await writeIndex(this.options.dir, segment.toIndex(open));
    } catch (error) {
      // A segment without its index is scanned when read, and re-indexed at the next start.
      this.options.log.error({ err: error, segment: segment.segment }, 'could not write an audit segment index');
    } finally {
      this.sealing.delete(segment.segment);
    }
    await this.applyRetention().catch((error: unknown) => this.options.log.error({ err: error }, 'audit retention failed'));
  }
}

/** An intent opens a call, its completion closes it. */
export function applyToOpen(open: Map<string, InvocationIntent>, record: AuditRecord): void {
  if (record.kind === 'intent') open.set(record.intent.id, record.intent);
  else if (record.kind === 'completion') open.delete(record.row.id);
}
