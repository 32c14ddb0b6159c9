import initSqlJs, { type Database, type SqlJsStatic, type SqlValue, type Statement } from 'sql.js';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GatewayError, type Logger } from '../gateway/core/index.js';
import { writeFileAtomic } from './atomicWrite.js';
import { Journal, parseJournal, readJournal, type JournalEntry } from './journal.js';
import { refuseLostDatabase, unreadableDatabase } from './lostDatabase.js';
import { MIGRATIONS_DIR, bootstrapSchema, migrate } from './migrate.js';

import type { SqlExecutor, SqlParam } from './sqlExecutor.js';
import { storageUnavailable } from './storageUnavailable.js';

export type { SqlParam };

export interface SqlDatabaseOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  /** Write a checkpoint after this many journaled writes (default 2000). */
  checkpointEvery?: number;
  /** Told how long each journal fsync took, in ms. */
  onJournalFsync?: (ms: number) => void;
}

/**
 * The embedded store: sql.js in memory, made durable by a write-ahead journal (fsynced before a
 * write resolves) and periodic atomic checkpoints of the whole database file. Memory never holds
 * what the disk refused: when the journal fails, the database is reloaded from the checkpoint and
 * the acknowledged journal lines, and writes wait for that (or fail `storage_unavailable`).
 */
export class SqlDatabase implements SqlExecutor {
  private seq = 0;
  private sinceCheckpoint = 0;
  private checkpointing: Promise<void> | undefined;
  /** Set from a journal failure until memory again equals the acknowledged state on disk. */
  private recovering: Promise<void> | undefined;
  private stale = false;
  private journal!: Journal;
  /** Prepared once per SQL text; sql.js frees them on export, so a checkpoint clears the cache. */
  private readonly statements = new Map<string, Statement>();
  /** The result columns of each prepared statement, read once (freed statements drop out with them). */
  private readonly columns = new WeakMap<Statement, string[]>();

  private constructor(
    private readonly SQL: SqlJsStatic,
    private db: Database,
    private readonly dbPath: string,
    private readonly options: SqlDatabaseOptions,
  ) {}

  static async open(options: SqlDatabaseOptions): Promise<SqlDatabase> {
    const SQL = await initSqlJs();
    const dbPath = join(options.dataDir, 'scigate.db');
    let store!: SqlDatabase;
    const onFailure = () => store.startRecovery();
    const { journal, entries } = await Journal.open(`${dbPath}.journal`, {
      log: options.log, onFailure, ...(options.now ? { now: options.now } : {}), ...(options.onJournalFsync ? { onFsync: options.onJournalFsync } : {}),
    });
    try {
      const file = await readDatabaseFile(dbPath);
      await refuseLostDatabase(options.dataDir, dbPath, file, entries.length);
      const loaded = loadDatabase(SQL, file, entries, Number.MAX_SAFE_INTEGER, dbPath);
      const ran = await migrate(loaded.db, options.now ?? (() => new Date()), MIGRATIONS_DIR, dbPath);
      store = new SqlDatabase(SQL, loaded.db, dbPath, options);
      store.journal = journal;
      store.seq = loaded.seq;
      journal.ackedSeq = Math.max(journal.ackedSeq, loaded.seq);
      if (loaded.replayed > 0 || ran.length > 0 || !loaded.fromFile) await store.checkpoint();
      options.log.info({ dbPath, replayed: loaded.replayed, migrations: ran }, 'database opened');
      return store;
    } catch (error) {
      // A refused start closes the journal it opened: left to the garbage collector, its handle
      // prints a deprecation warning ahead of the refusal (and a later Node throws there).
      await journal.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Runs a write and resolves, once it is durable in the journal, with how many rows it changed
   * (counted when it ran, so a conditional update's count decides who won); `storage_unavailable`
   * if it is not durable.
   */
  async write(sql: string, params: SqlParam[] = []): Promise<number> {
    // Only a failed journal makes a write wait here: otherwise the change is applied at once, so a
    // read right after the call sees it (as before), and its journal line keeps its order.
    if (this.recovering || this.stale || this.journal.failed) await this.becomeSound();
    this.prepared(sql).run(params);
    const changed = this.db.getRowsModified();
    this.seq += 1;
    try {
      await this.journal.append({ seq: this.seq, sql, params });
    } catch (error) {
      // Memory no longer holds this write (reloaded on the failure); the journal repair may still run.
      throw GatewayError.from(error);
    }
    this.sinceCheckpoint += 1;
    if (this.sinceCheckpoint >= (this.options.checkpointEvery ?? 2000)) void this.checkpoint().catch(() => {});
    return changed;
  }

  /** Journal fsyncs so far (group commit makes this smaller than the number of writes). */
  journalFlushCount(): number {
    return this.journal.flushCount;
  }

  /** Rows of a read query as objects keyed by column name. */
  all(sql: string, params: SqlParam[] = []): Array<Record<string, SqlValue>> {
    const statement = this.prepared(sql);
    try {
      statement.bind(params);
      const rows: Array<Record<string, SqlValue>> = [];
      if (!statement.step()) return rows;
      // getAsObject asks sql.js for the column names again for every row; they are fixed per statement.
      const columns = this.columnNames(statement);
      do {
        const values = statement.get();
        const row: Record<string, SqlValue> = {};
        for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i]!;
        rows.push(row);
      } while (statement.step());
      return rows;
    } finally {
      statement.reset();
    }
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private columnNames(statement: Statement): string[] {
    let columns = this.columns.get(statement);
    if (!columns) {
      columns = statement.getColumnNames();
      this.columns.set(statement, columns);
    }
    return columns;
  }

  private freeStatements(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
  }

  /**
   * Writes the whole database atomically, then empties the journal. New writes wait (unacknowledged)
   * while it runs, so nothing journaled after the snapshot is lost by the truncation.
   */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.runCheckpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  async close(): Promise<void> {
    try {
      await this.checkpoint();
    } finally {
      await this.journal.close();
      this.freeStatements();
      this.db.close();
    }
  }

  private async runCheckpoint(): Promise<void> {
    await this.journal.drainAndPause();
    try {
      // A snapshot taken while memory may hold refused writes would make them durable.
      if (this.recovering || this.stale || this.journal.failed) throw storageUnavailable(undefined, 'the journal failed; no checkpoint until it is repaired');
      this.db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('journal_seq', ?)", [String(this.seq)]);
      this.freeStatements();
      const bytes = this.db.export();
      this.sinceCheckpoint = 0;
      await writeFileAtomic(this.dbPath, bytes);
      await this.journal.truncate();
    } catch (error) {
      this.options.log.error({ err: error }, 'checkpoint failed; the journal keeps every write');
      throw error;
    } finally {
      this.journal.resume();
    }
  }

  /**
   * Called synchronously by the journal on a failed append or fsync, before any writer hears of it:
   * memory is reloaded at once (a blocking read, on this rare path) so that no code ever sees, and
   * no checkpoint ever saves, a write the disk refused. If even that fails, `recover` retries.
   */
  private startRecovery(): void {
    this.stale = true;
    try {
      const file = readFileSync(this.dbPath);
      this.reload(file, parseJournal(readFileSync(`${this.dbPath}.journal`)).entries);
    } catch (error) {
      this.options.log.error({ err: error }, 'could not reload the database after a journal failure; writes wait');
    }
    this.ensureRecovering();
  }

  private ensureRecovering(): void {
    this.recovering ??= this.recover().finally(() => {
      this.recovering = undefined;
    });
  }

  /** Waits for (or retries) the recovery; throws `storage_unavailable` while the store is unsound. */
  private async becomeSound(): Promise<void> {
    this.ensureRecovering();
    try {
      await this.recovering;
    } catch (error) {
      throw GatewayError.from(error).code === 'storage_unavailable' ? error : storageUnavailable(error, 'recovery failed');
    }
  }

  /** Memory first (if the synchronous reload failed), then the journal file. */
  private async recover(): Promise<void> {
    await this.checkpointing?.catch(() => {});
    if (this.stale) this.reload(await readDatabaseFile(this.dbPath), (await readJournal(`${this.dbPath}.journal`)).entries);
    await this.journal.repair();
  }

  /** Replaces memory with the checkpoint plus the acknowledged journal entries. */
  private reload(file: Uint8Array | undefined, journal: JournalEntry[]): void {
    const loaded = loadDatabase(this.SQL, file, journal, this.journal.ackedSeq, this.dbPath);
    this.freeStatements();
    this.db.close();
    this.db = loaded.db;
    this.seq = loaded.seq;
    this.stale = false;
    this.options.log.warn({ seq: this.seq }, 'database reloaded from its checkpoint and acknowledged journal lines');
  }
}

async function readDatabaseFile(dbPath: string): Promise<Uint8Array | undefined> {
  return readFile(dbPath).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
}

/**
 * A database loaded from the checkpoint file plus the journal entries after it, up to `uptoSeq`;
 * a file or a line sql.js refuses is `storage_unavailable` naming it (not a bare SQL error).
 */
function loadDatabase(SQL: SqlJsStatic, file: Uint8Array | undefined, journal: JournalEntry[], uptoSeq: number, dbPath: string) {
  let db: Database;
  let checkpointSeq: number;
  try {
    db = file ? new SQL.Database(file) : new SQL.Database();
    bootstrapSchema(db);
    checkpointSeq = Number(db.exec("SELECT value FROM meta WHERE key = 'journal_seq'")[0]?.values[0]?.[0] ?? 0);
  } catch (error) {
    throw unreadableDatabase(dbPath, error);
  }
  const entries = journal.filter((e) => e.seq > checkpointSeq && e.seq <= uptoSeq);
  for (const entry of entries) {
    try {
      db.run(entry.sql, entry.params);
    } catch (error) {
      db.close();
      throw unreadableDatabase(dbPath, error, entry.seq);
    }
  }
  return { db, seq: Math.max(checkpointSeq, entries.at(-1)?.seq ?? 0), replayed: entries.length, fromFile: file !== undefined };
}

