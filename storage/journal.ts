import { constants, write, writeSync } from 'node:fs';
import { access, open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../gateway/core/index.js';
import { FILE_MODE, writeFileAtomic } from './atomicWrite.js';
import { splitLines, type EntryCheck, type SkippedLine } from './journalLines.js';
import { storageUnavailable } from './storageUnavailable.js';

export type { EntryCheck } from './journalLines.js';

/** One journaled write: a sequence number and the SQL that made it. */
export interface JournalEntry {
  seq: number;
  sql: string;
  params: Array<string | number | null>;
}

/** Any journal line: numbered, so the last acknowledged one is known. */
export interface SequencedEntry {
  seq: number;
}

/** What a journal file holds: its sound entries, where they end, and anything after them. */
export interface JournalContents<E extends SequencedEntry = JournalEntry> {
  entries: E[];
  /** Length in bytes up to the end of the last sound line. */
  soundBytes: number;
  /** Damaged lines passed over between sound ones (only with `skipDamagedLines`). */
  skipped: SkippedLine[];
  /** The bytes after the last sound line (a torn or corrupt tail) up to the zeros of a reserve, if any. */
  torn?: Buffer;
  /** Length of the whole file, zeros after the last line included. */
  fileBytes: number;
}

export interface JournalOptions<E extends SequencedEntry = JournalEntry> {
  log: Logger;
  /** What a sound line holds (default: a SQL journal entry). */
  isEntry?: EntryCheck<E>;
  /**
   * Pass over a line that does not parse when sound lines follow it (splitLines' `skipDamaged`),
   * saving its bytes aside, instead of setting everything after it aside: for lines that stand alone.
   */
  skipDamagedLines?: boolean;
  /** Called synchronously when an append or fsync fails, before any writer hears about it. */
  onFailure?: (error: unknown) => void;
  /** Told how long each successful flush took to be durable, in ms (the journal-fsync latency metric). */
  onFsync?: (ms: number) => void;
  now?: () => Date;
  /**
   * Zeroed bytes kept on disk ahead of the last line (default 0). A flush then overwrites blocks
   * the file already has and its length does not change, so the O_DSYNC write needs no filesystem
   * journal commit (0.19-0.21 against 0.25-0.27 ms a flush here, scripts/benchJournalWrite.mjs).
   * A flush that passes the reserve writes the next one after its lines; closing cuts it off.
   */
  reserveBytes?: number;
  /**
   * How long a `lazy` append may wait for company before it is written anyway (default 0). An
   * eager append takes every waiting lazy line along in its write and fsync.
   */
  lingerMs?: number;
  /**
   * Whether a flush somebody waits for may be written on the event loop now (default: never). A
   * write there costs no thread-pool round trip (~50 us of CPU and two wake-ups here) but stops the
   * loop until the disk answers, so the owner allows it only when nothing else waits on the loop,
   * and the journal only while its flushes are fast (under LOOP_WRITE_MAX_MS).
   */
  writeOnLoop?: () => boolean;
}

interface Pending {
  line: string;
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Append-only write-ahead journal of JSON lines (SQL writes by default; the audit log's records too). `append` resolves only after the line is fsynced; lines that
 * arrive while a sync runs share the next one (group commit). A failed write or fsync poisons the
 * journal: every append is refused (`storage_unavailable`) until `repair` has cut the file back to
 * the last acknowledged line, so nothing is ever appended after bytes of unknown state.
 */
export class Journal<E extends SequencedEntry = JournalEntry> {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  /** An eager line is pending: the next batch is taken at once, not after the linger. */
  private eager = false;
  /** Somebody waits for a pending line (an eager append or an urge), not only the linger's end. */
  private awaited = false;
  /** How long the last flush took to be durable (ms). */
  private lastFlushMs = 0;
  private linger: NodeJS.Timeout | undefined;
  private paused = false;
  private failure: unknown;
  /** How many appends+fsyncs ran; fewer than appends when writers shared one (group commit). */
  flushCount = 0;
  /** How many of those were written on the event loop (writeOnLoop). */
  loopFlushCount = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    private readonly options: JournalOptions<E>,
    /** File length up to the end of the last acknowledged line. */
    private soundBytes: number,
    /** File length with the reserve: where the zeros end. */
    private allocatedBytes: number,
    /** Sequence number of the last acknowledged entry (0 before any). */
    public ackedSeq: number,
  ) {}

  /**
   * Opens the journal for appending after setting a torn or corrupt tail aside (in
   * `<path>.torn-<time>`, with a warning) and cutting the file back to its last sound line, so
   * new lines never join onto a fragment. Returns the sound entries for replay.
   */
  static async open<E extends SequencedEntry = JournalEntry>(path: string, options: JournalOptions<E>): Promise<{ journal: Journal<E>; entries: E[] }> {
    const contents = await readJournal(path, options.isEntry, options.skipDamagedLines);
    if (contents.skipped.length > 0) await setSkippedLinesAside(path, contents, options);
    const handle = await open(path, WRITE_FLAGS, FILE_MODE);
    try {
      if (contents.torn) await setTornTailAside(handle, path, contents, options);
    } catch (error) {
      await handle.close();
      throw error;
    }
    const allocated = contents.torn ? contents.soundBytes : contents.fileBytes;
    const journal = new Journal(handle, path, options, contents.soundBytes, allocated, contents.entries.at(-1)?.seq ?? 0);
    return { journal, entries: contents.entries };
  }

  /** True from a failed write or fsync until `repair` succeeds. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Length in bytes of the acknowledged lines (where the next line starts once all before it are on disk). */
  get size(): number {
    return this.soundBytes;
  }

  /**
   * Appends an entry; resolves once it is on disk. `line` is the entry's JSON line when the caller
   * already serialized it (to know its length), so it is not serialized twice. A `lazy` entry
   * (nobody waits for it) may wait up to `lingerMs` for the next eager one, to share its fsync.
   */
  append(entry: E, line = `${JSON.stringify(entry)}\n`, lazy = false): Promise<void> {
    if (this.failed) return Promise.reject(storageUnavailable(this.failure));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, seq: entry.seq, resolve, reject });
      if (!lazy || !this.options.lingerMs) this.eager = this.awaited = true;
      this.kick();
    });
  }

  /** Writes the lines waiting now without lingering: somebody has come to wait for a lazy one. */
  urge(): void {
    if (this.pending.length === 0) return;
    this.eager = this.awaited = true;
    this.kick();
  }

  /** Waits until everything appended so far is on disk, then holds new lines back until `resume`. */
  async drainAndPause(): Promise<void> {
    while (this.flushing || (this.pending.length > 0 && !this.failed)) {
      this.urge();
      await this.flushing;
    }
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  /** Empties the journal (after a checkpoint has made its entries redundant). */
  async truncate(): Promise<void> {
    await this.handle.truncate(0);
    this.soundBytes = 0;
    this.allocatedBytes = 0;
    await this.handle.sync();
  }

  /**
   * Makes a failed journal sound again: cuts it back to the last acknowledged line, syncs, then
   * re-reads it to verify nothing follows that line. Throws `storage_unavailable` if it cannot.
   */
  async repair(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.failed) return;
    try {
      await this.handle.truncate(this.soundBytes);
      this.allocatedBytes = this.soundBytes;
      await this.handle.sync();
      const check = await readJournal(this.path, this.options.isEntry, this.options.skipDamagedLines);
      if (check.torn || check.soundBytes !== this.soundBytes) throw new Error('the journal does not end at its last acknowledged line');
    } catch (error) {
      throw storageUnavailable(error);
    }
    this.failure = undefined;
    this.options.log.warn({ path: this.path, bytes: this.soundBytes, seq: this.ackedSeq }, 'journal repaired; writes accepted again');
    this.kick();
  }

  /** Writes what is queued, cuts the reserve off (a closed file holds only its lines) and closes. */
  async close(): Promise<void> {
    await this.drainAndPause();
    try {
      if (this.allocatedBytes > this.soundBytes && !this.failed) {
        await this.handle.truncate(this.soundBytes);
        await this.handle.sync();
      }
    } finally {
      await this.handle.close();
    }
  }

  private kick(): void {
    if (this.flushing || this.paused || this.failed || this.pending.length === 0) return;
    if (!this.eager) {
      this.linger ??= setTimeout(() => {
        this.linger = undefined;
        // Nobody waits: the lines go out (off the loop) because they waited long enough.
        this.eager = true;
        this.kick();
      }, this.options.lingerMs);
      return;
    }
    clearTimeout(this.linger);
    this.linger = undefined;
    // The batch is taken one event-loop turn later: lines appended by the same turn's continuations
    // (a call's intent, then its permission authorization) share one write and one fsync.
    this.flushing = nextTurn().then(() => this.flush()).finally(() => {
      this.flushing = undefined;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    const onLoop = this.awaited && this.lastFlushMs < LOOP_WRITE_MAX_MS && constants.O_DSYNC !== undefined && this.options.writeOnLoop?.() === true;
    // Every waiting line is in this batch: a lazy line appended from now on lingers again.
    this.eager = this.awaited = false;
    // One Buffer written with the callback fs.write (see writeAll) instead of appendFile(string).
    const data = Buffer.from(batch.map((p) => p.line).join(''));
    const reserve = this.options.reserveBytes ?? 0;
    // Past the reserve: the same write lays the next reserve down after the lines.
    const out = reserve > 0 && this.soundBytes + data.length > this.allocatedBytes ? Buffer.concat([data, Buffer.alloc(reserve)]) : data;
    this.flushCount += 1;
    let syncMs: number;
    let written = out;
    try {
      const startedAt = performance.now();
      try {
        await this.writeAt(out, onLoop);
      } catch (error) {
        // The disk has room for the lines but not for a new reserve: the lines alone are written
        // (over whatever part of the reserve got down), and the next flush tries the reserve again.
        if (out === data || !isOutOfSpace(error)) throw error;
        await this.writeAt(data, onLoop);
        written = data;
      }
      syncMs = performance.now() - startedAt;
      this.lastFlushMs = syncMs;
      if (onLoop) this.loopFlushCount += 1;
    } catch (error) {
      this.fail(error, batch);
      return;
    }
    this.allocatedBytes = Math.max(this.allocatedBytes, this.soundBytes + written.length);
    this.soundBytes += data.length;
    this.ackedSeq = batch.at(-1)!.seq;
    for (const p of batch) p.resolve();
    // Last and outside the try: an observer never delays a writer or reads as a failed write.
    this.options.onFsync?.(syncMs);
  }

  /** Writes `bytes` durably at the end of the acknowledged lines, on the event loop or the thread pool. */
  private async writeAt(bytes: Buffer, onLoop: boolean): Promise<void> {
    if (onLoop) return writeAllNow(this.handle.fd, bytes, this.soundBytes);
    await writeAll(this.handle, bytes, this.soundBytes);
    if (!constants.O_DSYNC) await this.handle.datasync();
  }

  /** Poisons the journal and refuses the batch plus everything queued behind it. */
  private fail(error: unknown, batch: Pending[]): void {
    this.failure = error;
    const refused = [...batch, ...this.pending.splice(0)];
    this.options.log.error({ err: error, path: this.path, refused: refused.length }, 'journal write failed; writes refused until it is repaired');
    this.options.onFailure?.(error);
    const wire = storageUnavailable(error);
    for (const p of refused) p.reject(wire);
  }
}

/**
 * Writes every byte of data at `position` (a write may be short), through the callback fs.write on
 * the handle's descriptor: the FileHandle promise path costs ~30% more CPU per flush (measured 56
 * vs 42 us, scripts/benchJournalWrite.mjs). close() drains first, so the fd stays open.
 */
async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    offset += await new Promise<number>((resolve, reject) => {
      write(handle.fd, data, offset, data.length - offset, position + offset, (error, written) => (error ? reject(error) : resolve(written)));
    });
  }
}

/** The same on the event loop: with O_DSYNC each write returns once its bytes are on disk. */
function writeAllNow(fd: number, data: Buffer, position: number): void {
  for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset, position + offset);
}

/** A flush slower than this sends the next ones through the thread pool: the loop never stalls long. */
const LOOP_WRITE_MAX_MS = 1;

/**
 * Lines are written at the journal's own end (the sound length), not in append mode: a reserve of
 * zeros may follow them. Where the platform has it, O_DSYNC: a write returns once its bytes (and
 * the file's new length, if it grew) are on disk, so a flush is one thread-pool hop instead of a
 * write and an fdatasync (scripts/benchJournalWrite.mjs). Elsewhere the flush calls fdatasync.
 */
const WRITE_FLAGS = constants.O_CREAT | constants.O_RDWR | (constants.O_DSYNC ?? 0);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A full disk, a quota or a file size limit, which a write without its reserve may still fit into. */
const isOutOfSpace = (error: unknown) => ['ENOSPC', 'EDQUOT', 'EFBIG'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Reads a journal file: the entries of its sound lines and the bytes after them (if any). */
export async function readJournal<E extends SequencedEntry = JournalEntry>(path: string, isEntry?: EntryCheck<E>, skipDamaged = false): Promise<JournalContents<E>> {
  let bytes: Buffer;
  try {
    const handle = await open(path, 'r');
    bytes = await handle.readFile().finally(() => handle.close());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], soundBytes: 0, skipped: [], fileBytes: 0 };
    throw error;
  }
  return parseJournal(bytes, isEntry, skipDamaged);
}

/** Splits journal bytes into sound entries and a tail (see splitLines). */
export function parseJournal<E extends SequencedEntry = JournalEntry>(bytes: Buffer, isEntry?: EntryCheck<E>, skipDamaged = false): JournalContents<E> {
  const { lines, ...rest } = splitLines(bytes, isEntry ?? (isJournalEntry as unknown as EntryCheck<E>), skipDamaged);
  return { entries: lines.map((line) => line.entry), ...rest };
}

async function setTornTailAside<E extends SequencedEntry>(handle: FileHandle, path: string, contents: JournalContents<E>, options: JournalOptions<E>): Promise<void> {
  const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const aside = `${path}.torn-${stamp}`;
  // Saved first and durably: if that fails, start-up stops rather than dropping bytes unseen.
  await writeFileAtomic(aside, contents.torn!);
  await handle.truncate(contents.soundBytes);
  await handle.sync();
  options.log.warn(
    { path, savedTo: aside, tornBytes: contents.torn!.length, replayed: contents.entries.length },
    'journal has a torn or corrupt tail; replay stops there, the tail was saved aside and cut off',
  );
}


/**
 * Saves damaged lines the journal passes over, each once (named by its offset: they stay where
 * they lie, so every start meets them again), and says where.
 */
async function setSkippedLinesAside<E extends SequencedEntry>(path: string, contents: JournalContents<E>, options: JournalOptions<E>): Promise<void> {
  const saved: string[] = [];
  for (const { offset, bytes } of contents.skipped) {
    const aside = `${path}.damaged-at-${offset}`;
    if (!(await exists(aside))) await writeFileAtomic(aside, bytes);
    saved.push(aside);
  }
  options.log.warn(
    { path, savedTo: saved, damagedLines: saved.length, replayed: contents.entries.length },
    'journal has damaged lines between sound ones; they were passed over (the lines after them are kept) and saved aside',
  );
}

const exists = (path: string) => access(path).then(() => true, () => false);

function isJournalEntry(value: unknown): value is JournalEntry {
  const entry = value as JournalEntry | null;
  return typeof entry === 'object' && entry !== null && Number.isInteger(entry.seq) && typeof entry.sql === 'string' && Array.isArray(entry.params);
}
