import {
  compareInvocations, interruptedInvocation, isAfterCursor, type InvocationCursor, type InvocationIntent, type InvocationRecord, type InvocationStore,
  type PermissionAuthorizationRecord, withFields,
} from '../../gateway/core/index.js';
import { fsyncDirectory } from '../atomicWrite.js';
import { ensurePrivateDir } from '../dataDir.js';
import type { Journal } from '../journal.js';
import {
  encodeBlob, idOf, type AuditRecord, type AuthorizationRecord, type CompletionRecord, type IntentRecord,
} from './auditRecords.js';
import { listSegments, readBlob, scanSegment } from './segmentFiles.js';
import { openSegmentJournal, type SegmentJournalOptions } from './segmentJournal.js';
import { SealedSegments, applyToOpen, type SealedSegmentsOptions } from './sealedSegments.js';
import { SegmentRows } from './segmentRows.js';
import { storageUnavailable } from '../storageUnavailable.js';

export interface AuditLogOptions extends SealedSegmentsOptions, SegmentJournalOptions {
  /** Seal the active segment after this many completions (default 4096)... */
  segmentRows?: number;
  /** ...or once it holds this many bytes (default 16 MiB): memory and start-up work stay bounded by one segment. */
  segmentBytes?: number;
}

/** A record to append, and what to let go of once its line is durable (its blob kept in memory). */
interface Line {
  record: AuditRecord;
  release: () => void;
}

/** A call that began and has not completed. */
interface OpenIntent {
  line: Line;
  /** Its line is durable; until then a completion that fails takes it along to re-append. */
  durable: boolean;
  /** Its line was refused by a failed write: its completion re-appends it first. */
  failed: boolean;
}

/** A write waiting for its turn in the log. */
interface Outgoing extends Line {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Records a failed write keeps for re-appending once the disk takes writes again, at most. */
const MAX_HELD = 10_000;
const HEAL_RETRY_MS = 1000;

/**
 * The audit history as append-only segment files (docs/storage.md): one JSON line per intent or
 * completion, blobs inside, every line group-committed (one fdatasync for all writes that arrived
 * meanwhile) through a Journal. Only the active segment is held in memory; a sealed one gets an
 * index file, read when a query reaches it. A failed write poisons the log like the journal: writes
 * are refused with `storage_unavailable` until the file is cut back to its last acknowledged line,
 * and completions the client was already answered for are kept and re-appended then.
 */
export class AuditLog implements InvocationStore {
  private seq = 0;
  private nextOffset = 0;
  /** Intents the previous run left without a completion, until `interruptUnfinished`. */
  private stale: InvocationIntent[] = [];
  /** Blob bytes whose line is not durable yet (or was refused), by hash, with how many lines carry them. */
  private readonly unwritten = new Map<string, { bytes: Buffer; lines: number }>();
  /** Completed rows not yet handed to the journal (visible already). */
  private readonly queuedRows = new Map<string, InvocationRecord>();
  private outbox: Outgoing[] = [];
  /** `urge` came while lines waited in the outbox: they are written without lingering once handed over. */
  private urgedInOutbox = false;
  /** Lines a failed write refused that must still be kept (the client may have its answer). */
  private held: Line[] = [];
  /** Set while a rotation or a repair runs: writes queue in the outbox meanwhile. */
  private blocked: Promise<void> | undefined;
  private healRetry: NodeJS.Timeout | undefined;
  private rotationRetryAt = 0;
  private closed = false;
  /** Set by `close`: no repair or rotation starts any more. */
  private closing = false;
  /** fsyncs of the segments already sealed. */
  private sealedFlushes = 0;

  private constructor(
    private readonly options: AuditLogOptions,
    /** Calls begun and not completed, by invocation id. */
    private readonly open: Map<string, OpenIntent>,
    private journal: Journal<AuditRecord>,
    private active: SegmentRows,
    private readonly sealed: SealedSegments,
  ) {}

  /**
   * Opens the log: reads the active (newest) segment and the newest sealed index's open intents
   * only — never the whole history — so start-up time does not grow with it.
   */
  static async open(options: AuditLogOptions): Promise<AuditLog> {
    await ensurePrivateDir(options.dir);
    const segments = await listSegments(options.dir);
    const activeSegment = segments.at(-1) ?? 1;
    const sealed = new SealedSegments(options, segments.slice(0, -1));
    const stillOpen = await sealed.openIntents();
    const open = new Map<string, OpenIntent>();
    const journal = await openSegmentJournal(options, activeSegment, () => open.size);
    if (segments.length === 0) await fsyncDirectory(options.dir);
    const active = new SegmentRows(activeSegment);
    let nextOffset = 0;
    for (const { record, offset, length } of await scanSegment(options.dir, activeSegment)) {
      active.addLine(record, offset, length);
      applyToOpen(stillOpen, record);
      nextOffset = offset + length;
    }
    const log = new AuditLog(options, open, journal, active, sealed);
    log.nextOffset = nextOffset;
    log.stale = [...stillOpen.values()];
    log.seq = Math.max(active.lastSeq, await sealed.lastSeq());
    await sealed.applyRetention();
    return log;
  }

  begin(intent: InvocationIntent, argumentsBytes: Uint8Array): Promise<void> {
    if (this.open.has(intent.id) || this.hasRow(intent.id)) return Promise.reject(duplicate(intent.id));
    const record: IntentRecord = { seq: 0, kind: 'intent', intent: { ...intent }, blob: encodeBlob(argumentsBytes) };
    const entry: OpenIntent = { line: { record, release: this.keepUnwritten(intent.argumentsHash, argumentsBytes) }, durable: false, failed: false };
    this.open.set(intent.id, entry);
    return this.send(entry.line).then(
      () => {
        entry.durable = true;
      },
      (error: unknown) => {
        entry.failed = true;
        throw error;
      },
    );
  }

  /** Writes the lines waiting for company now (a call acts, or must answer); those queued behind a rotation or repair, once handed over. */
  urge(): void {
    if (this.outbox.length > 0) this.urgedInOutbox = true;
    this.journal.urge();
  }

  complete(invocation: InvocationRecord, resultBytes: Uint8Array | null): Promise<void> {
    if (this.hasRow(invocation.id)) return Promise.reject(duplicate(invocation.id));
    const intent = this.open.get(invocation.id);
    this.open.delete(invocation.id);
    // Visible at once: a read right after the answer (an artifact_download of this result) finds it.
    const row = { ...invocation };
    this.queuedRows.set(row.id, row);
    if (intent?.failed) this.rewrite(intent.line);
    const record: CompletionRecord = { seq: 0, kind: 'completion', row, blob: resultBytes && encodeBlob(resultBytes) };
    const line: Line = { record, release: this.keepUnwritten(resultBytes ? invocation.casHash : null, resultBytes) };
    return this.send(line).catch((error: unknown) => {
      // The client may already have its answer: keep the row and write it once the disk takes writes.
      if (intent && !intent.durable) this.hold(intent.line);
      this.hold(line);
      throw error;
    });
  }

  /**
   * Appends an authorization made without a PermissionRequest; resolves once durable (it shares
   * the group commit of the call's intent). A refused one is not kept: its action does not run.
   */
  authorize(authorization: PermissionAuthorizationRecord): Promise<void> {
    const record: AuthorizationRecord = { seq: 0, kind: 'authorization', authorization: { ...authorization } };
    return this.send({ record, release: () => {} });
  }

  /** A Session's authorizations in the log, oldest first (the sealed segments' are read through their indexes). */
  async authorizationsOf(sessionId: string): Promise<PermissionAuthorizationRecord[]> {
    const found = await this.sealed.authorizationsOf(sessionId);
    found.push(...this.active.authorizations.filter((a) => a.sessionId === sessionId));
    return found.map((a) => ({ ...a }));
  }

  async interruptUnfinished(at: string): Promise<number> {
    const stale = this.stale.splice(0);
    const written = Promise.all(stale.map((intent) => this.complete(interruptedInvocation(intent, at), null)));
    this.urge(); // The start waits for these: no linger.
    await written;
    return stale.length;
  }

  async get(id: string): Promise<InvocationRecord | undefined> {
    const row = this.queuedRows.get(id) ?? this.active.rows.get(id);
    if (row) return { ...row };
    const found = await this.sealed.row(id);
    return found && { ...found };
  }

  async listBySession(sessionId: string, options: { limit?: number; before?: InvocationCursor } = {}): Promise<InvocationRecord[]> {
    const limit = options.limit ?? 100;
    const found = this.active.ofSession(sessionId, options.before);
    for (const row of this.queuedRows.values()) if (row.sessionId === sessionId && isAfterCursor(row, options.before)) found.push(row);
    let newer: SegmentRows = this.active;
    for (const segment of this.sealed.newestFirst()) {
      found.sort(compareInvocations);
      // Rows of older segments all ended, so started, before the newer segment's earliest end.
      if (found.length >= limit && newer.minEndedAt !== '' && found[limit - 1]!.startedAt > newer.minEndedAt) break;
      newer = await this.sealed.rows(segment);
      found.push(...newer.ofSession(sessionId, options.before));
    }
    return found.sort(compareInvocations).slice(0, limit).map((row) => ({ ...row }));
  }

  /** A blob an intent or completion carried; undefined when the log has none with this hash. */
  async blob(hash: string): Promise<Buffer | undefined> {
    const unwritten = this.unwritten.get(hash);
    if (unwritten) return Buffer.from(unwritten.bytes);
    const place = this.active.blobs.get(hash);
    const bytes = place && (await readBlob(this.options.dir, this.active.segment, place, hash));
    return bytes || this.sealed.blob(hash);
  }

  /** fsyncs so far (group commit makes this smaller than the number of records). */
  get flushCount(): number {
    return this.sealedFlushes + this.journal.flushCount;
  }

  /** Flushes of the active segment written on the event loop (while at most one call was open). */
  get loopFlushCount(): number {
    return this.journal.loopFlushCount;
  }

  /** Seals the active segment now (benchmarks and tests; the log does it by itself when one is full). */
  async seal(): Promise<void> {
    while (this.blocked) await this.blocked;
    this.startRotation(true);
    while (this.blocked) await this.blocked;
  }

  /** Resolves once the sealed segments' index files are written (they are written in the background). */
  indexed(): Promise<void> {
    return this.sealed.indexed();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.healRetry);
    while (this.blocked) await this.blocked.catch(() => {});
    // What is still queued goes to the journal (which drains it on close), unless the disk refuses.
    for (const item of this.outbox.splice(0)) {
      if (this.journal.failed) item.reject(storageUnavailable(new Error('the audit log closed while the disk refused writes')));
      else this.hand(item);
    }
    this.closed = true;
    await this.sealed.indexed();
    await this.journal.close();
  }

  private hasRow(id: string): boolean {
    return this.queuedRows.has(id) || this.active.rows.has(id);
  }

  /** Queues a line (in call order) and resolves once it is durable. */
  private send(line: Line): Promise<void> {
    if (this.closed) return Promise.reject(storageUnavailable(new Error('the audit log is closed')));
    return new Promise<void>((resolve, reject) => {
      this.outbox.push(
        withFields(line, {
          resolve: () => {
            line.release();
            resolve();
          },
          reject,
        }),
      );
      this.pump();
    });
  }

  /** Re-queues a line refused earlier (its caller already heard about that); held again if refused again. */
  private rewrite(line: Line): void {
    this.outbox.push(withFields(line, { resolve: line.release, reject: () => this.hold(line) }));
  }

  /** Keeps a blob readable from memory until its line is durable; returns the release. */
  private keepUnwritten(hash: string | null, bytes: Uint8Array | null): () => void {
    if (!hash || !bytes) return () => {};
    const kept = this.unwritten.get(hash);
    if (kept) kept.lines += 1;
    else this.unwritten.set(hash, { bytes: Buffer.from(bytes), lines: 1 });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const entry = this.unwritten.get(hash);
      if (entry && --entry.lines === 0) this.unwritten.delete(hash);
    };
  }

  private hold(line: Line): void {
    if (this.held.includes(line)) return;
    this.held.push(line);
    if (this.held.length > MAX_HELD) {
      const dropped = this.held.shift()!;
      dropped.release();
      this.options.log.error({ invocationId: idOf(dropped.record) }, 'audit record dropped: the disk refused writes for too long');
    }
  }

  /** Hands every queued record to the journal, unless a repair or rotation has to run first. */
  private pump(): void {
    if (this.blocked || this.closing) return;
    if (this.journal.failed) {
      if (this.outbox.length > 0 || this.held.length > 0) this.startHeal();
      return;
    }
    for (const item of this.outbox.splice(0)) this.hand(item);
    if (this.urgedInOutbox) {
      this.urgedInOutbox = false;
      this.journal.urge();
    }
    if (this.active.rows.size >= (this.options.segmentRows ?? 4096) || this.nextOffset >= (this.options.segmentBytes ?? 16 * 1024 * 1024)) {
      this.startRotation(false);
    }
  }

  private hand(item: Outgoing): void {
    const record = withFields(item.record, { seq: ++this.seq }) as AuditRecord;
    if (record.kind === 'completion') this.queuedRows.delete(record.row.id);
    const line = `${JSON.stringify(record)}\n`;
    const length = Buffer.byteLength(line);
    this.active.addLine(record, this.nextOffset, length);
    this.nextOffset += length;
    // Nobody waits for a completion (the answer is out), nor yet for an intent (until its call acts
    // or must answer: `urge`): they ride with the next flush somebody waits for. An authorization's
    // action waits for it.
    this.journal.append(record, line, record.kind !== 'authorization').then(item.resolve, item.reject);
  }

  private block(work: () => Promise<void>): void {
    this.blocked = work().finally(() => {
      this.blocked = undefined;
      this.pump();
    });
    this.blocked.catch(() => {});
  }

  /**
   * Cuts the segment back to its last acknowledged line, then re-appends what the failure refused
   * but must be kept, ahead of new writes. While the disk still refuses, queued writes are refused
   * and a retry is scheduled.
   */
  private startHeal(): void {
    this.block(async () => {
      try {
        await this.journal.repair();
      } catch (error) {
        for (const item of this.outbox.splice(0)) item.reject(storageUnavailable(error));
        clearTimeout(this.healRetry);
        this.healRetry = setTimeout(() => this.pump(), HEAL_RETRY_MS).unref();
        return;
      }
      this.nextOffset = this.journal.size;
      const held = this.held.splice(0);
      this.outbox.unshift(...held.map((line) => withFields(line, { resolve: line.release, reject: () => this.hold(line) })));
      this.options.log.warn({ rewritten: held.length }, 'audit log repaired; writes accepted again');
    });
  }

  /**
   * Seals the active segment once all its lines are durable: new writes go to the next segment, and
   * the sealed one's rows move from memory to its index file (written in the background).
   */
  private startRotation(force: boolean): void {
    if (!force && Date.now() < this.rotationRetryAt) return;
    this.block(async () => {
      await this.journal.drainAndPause();
      if (this.journal.failed) {
        this.journal.resume();
        return;
      }
      const old = this.active;
      const oldJournal = this.journal;
      let next: Journal<AuditRecord>;
      try {
        next = await openSegmentJournal(this.options, old.segment + 1, () => this.open.size);
        await fsyncDirectory(this.options.dir);
      } catch (error) {
        this.options.log.error({ err: error }, 'could not start a new audit segment; the current one grows until it can');
        this.rotationRetryAt = Date.now() + HEAL_RETRY_MS;
        oldJournal.resume();
        return;
      }
      // A refused intent is not on disk: if it never gets there, its call has no row (the client was refused).
      const open = [...this.open.values()].filter((o) => !o.failed).map((o) => (o.line.record as IntentRecord).intent).concat(this.stale);
      this.journal = next;
      this.active = new SegmentRows(old.segment + 1);
      this.nextOffset = 0;
      this.sealed.add(old, open);
      await oldJournal.close();
      this.sealedFlushes += oldJournal.flushCount;
    });
  }
}

function duplicate(id: string): Error {
  return new Error(`invocations: a row with id ${id} already exists`);
}

