import pg from 'pg';
import type { Logger } from '../../gateway/core/index.js';
import type { Row } from '../sqlExecutor.js';
import type { SqlExecutor } from '../sqlExecutor.js';
import { connectError, isConnectionFailure, unavailableError } from './pgErrors.js';
import { redactPostgresUrl } from './postgresUrl.js';

export interface PgDatabaseOptions {
  /** postgres://user:password@host:port/database (libpq URL parameters such as `options` pass through). */
  url: string;
  log: Logger;
  /** Connections this process keeps open at most (default 10). */
  poolSize?: number;
  /** The flag the URL came from, named in a failed connect's message (default --store (SCIGATE_STORE)). */
  urlFlag?: string;
}

/** Longest wait for a free or new connection before a statement fails `storage_unavailable`. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A pool of connections to PostgreSQL behind the repositories' `SqlExecutor`. Every statement is
 * autocommitted, so a write is durable (by the server's `synchronous_commit`) when it resolves; a
 * conditional UPDATE's row count decides races between replicas as it does between callers.
 */
export class PgDatabase implements SqlExecutor {
  /** The URL with its password redacted: the only form a message or log line shows. */
  readonly shownUrl: string;
  private readonly placeholders = new Map<string, string>();

  private constructor(
    private readonly pool: pg.Pool,
    url: string,
  ) {
    this.shownUrl = redactPostgresUrl(url);
  }

  /** Opens the pool and one connection now, so a wrong URL, login or dead server stops start-up with a clear message. */
  static async connect(options: PgDatabaseOptions): Promise<PgDatabase> {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    const db = new PgDatabase(pool, options.url);
    // An idle connection that dies (server restart) must not crash the process (nor print the
    // client, password included, as an uncaught error): the pool replaces it.
    pool.on('error', (error) => options.log.warn({ store: db.shownUrl, code: (error as { code?: string }).code, reason: error.message }, 'a PostgreSQL connection failed; the pool opens a new one'));
    try {
      (await pool.connect()).release();
    } catch (error) {
      await pool.end().catch(() => {});
      throw connectError(error, db.shownUrl, options.urlFlag);
    }
    return db;
  }

  async write(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  async all(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.query(sql, params)).rows as Row[];
  }

  /** Runs `work` on one connection of its own (a migration's lock and transactions), then returns it to the pool. */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => Promise.reject(unavailableError(error, this.shownUrl)));
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async query(sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(this.numbered(sql), params as unknown[]);
    } catch (error) {
      throw isConnectionFailure(error) ? unavailableError(error, this.shownUrl) : error;
    }
  }

  /** `?` placeholders (the shared SQL) as PostgreSQL's `$1, $2, …`; the shared SQL has no `?` inside literals. */
  private numbered(sql: string): string {
    let text = this.placeholders.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      this.placeholders.set(sql, text);
    }
    return text;
  }
}
