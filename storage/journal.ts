import { open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../gateway/core/index.js';
import { FILE_MODE } from './atomicWrite.js';

/** One journaled write: a sequence number and the SQL that made it. */
export interface JournalEntry {
  seq: number;
  sql: string;
  params: Array<string | number | null>;
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Append-only write-ahead journal. `append` resolves only after the line is fsynced; lines that
 * arrive while a sync runs share the next one (group commit).
 */
export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private paused = false;
  /** How many appends+fsyncs ran; fewer than appends when writers shared one (group commit). */
  flushCount = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async open(path: string): Promise<Journal> {
    return new Journal(await open(path, 'a+', FILE_MODE));
  }

  /** Reads every complete entry; a torn or corrupt line ends the replay there, with a warning. */
  static async read(path: string, log: Logger): Promise<JournalEntry[]> {
    let text: string;
    try {
      const handle = await open(path, 'r');
      text = await handle.readFile('utf8').finally(() => handle.close());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: JournalEntry[] = [];
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (line === '' && index === lines.length - 1) break;
      const entry = parseEntry(line);
      if (!entry) {
        log.warn({ path, line: index + 1, replayed: entries.length }, 'journal has a torn or corrupt line; replay stops there');
        break;
      }
      entries.push(entry);
    }
    return entries;
  }

  /** Appends an entry; resolves once it is on disk. */
  append(entry: JournalEntry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line: `${JSON.stringify(entry)}\n`, resolve, reject });
      this.kick();
    });
  }

  /** Waits until everything appended so far is on disk, then holds new lines back until `resume`. */
  async drainAndPause(): Promise<void> {
    while (this.flushing || this.pending.length > 0) {
      this.kick();
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
    await this.handle.sync();
  }

  async close(): Promise<void> {
    await this.drainAndPause();
    await this.handle.close();
  }

  private kick(): void {
    if (this.flushing || this.paused || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    this.flushCount += 1;
    try {
      await this.handle.appendFile(batch.map((p) => p.line).join(''));
      await this.handle.datasync();
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}

function parseEntry(line: string): JournalEntry | undefined {
  try {
    const value = JSON.parse(line) as JournalEntry;
    const ok = Number.isInteger(value.seq) && typeof value.sql === 'string' && Array.isArray(value.params);
    return ok ? value : undefined;
  } catch {
    return undefined;
  }
}
