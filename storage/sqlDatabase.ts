import initSqlJs, { type Database, type SqlValue, type Statement } from 'sql.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../gateway/core/index.js';
import { writeFileAtomic } from './atomicWrite.js';
import { Journal } from './journal.js';
import { bootstrapSchema, migrate } from './migrate.js';

export type SqlParam = string | number | null;

export interface SqlDatabaseOptions {
  dataDir: string;
  log: Logger;
  now?: () => Date;
  /** Write a checkpoint after this many journaled writes (default 2000). */
  checkpointEvery?: number;
}

/**
 * The embedded store: sql.js in memory, made durable by a write-ahead journal (fsynced before a
 * write resolves) and periodic atomic checkpoints of the whole database file.
 */
export class SqlDatabase {
  private seq = 0;
  private sinceCheckpoint = 0;
  private checkpointing: Promise<void> | undefined;
  /** Prepared once per SQL text; sql.js frees them on export, so a checkpoint clears the cache. */
  private readonly statements = new Map<string, Statement>();

  private constructor(
    private readonly db: Database,
    private readonly journal: Journal,
    private readonly dbPath: string,
    private readonly options: SqlDatabaseOptions,
  ) {}

  static async open(options: SqlDatabaseOptions): Promise<SqlDatabase> {
    const SQL = await initSqlJs();
    const dbPath = join(options.dataDir, 'scigate.db');
    const journalPath = `${dbPath}.journal`;
    const file = await readFile(dbPath).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    const db = file ? new SQL.Database(file) : new SQL.Database();
    bootstrapSchema(db);
    const checkpointSeq = Number(db.exec("SELECT value FROM meta WHERE key = 'journal_seq'")[0]?.values[0]?.[0] ?? 0);
    const entries = (await Journal.read(journalPath, options.log)).filter((e) => e.seq > checkpointSeq);
    for (const entry of entries) db.run(entry.sql, entry.params);
    const ran = await migrate(db, options.now ?? (() => new Date()));
    const store = new SqlDatabase(db, await Journal.open(journalPath), dbPath, options);
    store.seq = Math.max(checkpointSeq, entries.at(-1)?.seq ?? 0);
    if (entries.length > 0 || ran.length > 0 || !file) await store.checkpoint();
    options.log.info({ dbPath, replayed: entries.length, migrations: ran }, 'database opened');
    return store;
  }

  /**
   * Runs a write and resolves, once it is durable in the journal, with how many rows it changed
   * (counted when it ran, so a conditional update's count decides who won).
   */
  async write(sql: string, params: SqlParam[] = []): Promise<number> {
    this.prepared(sql).run(params);
    const changed = this.db.getRowsModified();
    this.seq += 1;
    await this.journal.append({ seq: this.seq, sql, params });
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
      while (statement.step()) rows.push(statement.getAsObject());
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
    await this.checkpoint();
    await this.journal.close();
    this.freeStatements();
    this.db.close();
  }

  private async runCheckpoint(): Promise<void> {
    await this.journal.drainAndPause();
    try {
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
}
