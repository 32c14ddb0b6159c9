import type { SqlValue } from 'sql.js';

/** A row as the database returns it: column name → value (PostgreSQL's BIGINT arrives as a string; `Number` reads it). */
export type Row = Record<string, SqlValue>;

/** A value bound to a `?` placeholder. */
export type SqlParam = string | number | null;

/**
 * What the repositories need from a SQL database, so one set of repositories (and one row mapping)
 * serves both adapters: the embedded sql.js store answers reads at once, PostgreSQL over the network.
 * SQL is written with `?` placeholders in the dialect both engines share (no `INSERT OR REPLACE`;
 * `rowid` orders ties by insertion in both, a BIGSERIAL column of that name in PostgreSQL).
 */
export interface SqlExecutor {
  /** Runs a write; resolves, once it is durable, with how many rows it changed. */
  write(sql: string, params?: SqlParam[]): Promise<number>;
  /** Rows of a read query as objects keyed by column name. */
  all(sql: string, params?: SqlParam[]): Row[] | Promise<Row[]>;
}
