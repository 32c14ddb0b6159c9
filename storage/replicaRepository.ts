import type { ReplicaStore } from '../gateway/core/index.js';
import type { SqlExecutor, SqlParam } from './sqlExecutor.js';

/** An owned row's insert: the mapper's INSERT plus the owner column. */
export function withOwner(insertSql: string): string {
  return insertSql.replace(/\) VALUES \((.*)\)$/, ', replica_id) VALUES ($1, ?)');
}

/**
 * `AND` clause of a sweep: rows whose owner replica is not among `alive` (rows without an owner,
 * written before migration 006, count as dead). Without `alive`, every row (one process owns the store).
 */
export function ownerNotAlive(alive: readonly string[] | undefined): [string, SqlParam[]] {
  if (alive === undefined || alive.length === 0) return ['', []];
  return [` AND (replica_id IS NULL OR replica_id NOT IN (${alive.map(() => '?').join(', ')}))`, [...alive]];
}

/** The heartbeat rows of the replicas sharing a store (migration 006); `self` owns this process's pending work. */
export class ReplicaRepository implements ReplicaStore {
  private startedAt: string | undefined;

  constructor(private readonly db: SqlExecutor, readonly self: string) {}

  async beat(at: string): Promise<void> {
    const updated = await this.db.write('UPDATE replicas SET heartbeat_at = ? WHERE id = ?', [at, this.self]);
    if (updated > 0) return;
    this.startedAt ??= at;
    await this.db.write('INSERT INTO replicas (id, started_at, heartbeat_at) VALUES (?, ?, ?)', [this.self, this.startedAt, at]);
  }

  /** Also forgets older heartbeats (replicas killed long ago): their work is swept all the same. */
  async alive(since: string): Promise<string[]> {
    await this.db.write('DELETE FROM replicas WHERE heartbeat_at < ?', [since]);
    return (await this.db.all('SELECT id FROM replicas WHERE heartbeat_at >= ? ORDER BY id', [since])).map((row) => String(row['id']));
  }

  async leave(): Promise<void> {
    await this.db.write('DELETE FROM replicas WHERE id = ?', [this.self]);
  }
}
