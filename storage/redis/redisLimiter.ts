import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  GatewayError, QueueFull, checkSlotLimiterOptions, type AcquireOptions, type Clock, type Logger, type SlotLimiter, type SlotLimiterOptions,
} from '../../gateway/core/index.js';
import { ENTER, LEAVE, RENEW, TAKE } from './limiterScripts.js';
import { redisUnavailable, type RedisSubscriber } from './redisConnection.js';

/**
 * A slot or a place in the queue lives this long without renewal (a dead replica's are then dropped).
 * Shorter than the default queue timeout (20 s): a call queued behind a killed replica's slot gets
 * the slot instead of timing out.
 */
export const DEFAULT_LEASE_MS = 10_000;
/** A waiter asks again at least this often, even without a release message (lost message, expired holder). */
const POLL_MS = 1000;

type Script = (keys: string[], args: Array<string | number>) => Promise<[number, number]>;

/** The four scripts, registered once per connection (EVALSHA, falling back to EVAL). */
export function limiterScripts(client: Redis): Record<'enter' | 'take' | 'leave' | 'renew', Script> {
  const define = (name: string, lua: string): Script => {
    client.defineCommand(name, { numberOfKeys: 4, lua });
    const run = (client as unknown as Record<string, (...args: unknown[]) => Promise<[number, number]>>)[name]!;
    return (keys, args) => run.call(client, ...keys, ...args);
  };
  return {
    enter: define('scigateLimiterEnter', ENTER),
    take: define('scigateLimiterTake', TAKE),
    leave: define('scigateLimiterLeave', LEAVE),
    renew: define('scigateLimiterRenew', RENEW),
  };
}

export interface RedisLimiterDeps {
  scripts: ReturnType<typeof limiterScripts>;
  subscriber: RedisSubscriber;
  clock: Clock;
  log: Logger;
  /** How long a slot or place outlives its last renewal; holders renew three times per lease. */
  leaseMs?: number;
}

/**
 * A SlotLimiter whose queue, slots and spacing live in Redis, shared by every replica that uses
 * the same key: concurrency, minimum spacing between grants and queue depth hold across the
 * deployment, with strict FIFO order over all replicas' waiters. A waiter that gives up leaves the
 * queue at once, as with the in-process ClockLimiter; a release wakes the waiters by pub/sub.
 */
export class RedisLimiter implements SlotLimiter {
  private readonly keys: string[];
  private readonly channel: string;
  private readonly held = new Set<string>();
  private waiting = 0;
  /** Wakes this process's waiters when any replica releases a slot or leaves the queue. */
  private readonly wakers = new Set<() => void>();
  /** Counts release messages: a message that arrives while a TAKE is on its way is not lost. */
  private changes = 0;
  private subscribed = false;
  private renewal: ReturnType<typeof setInterval> | undefined;
  private readonly leaseMs: number;

  constructor(
    readonly key: string,
    private options: SlotLimiterOptions,
    private readonly deps: RedisLimiterDeps,
  ) {
    checkSlotLimiterOptions(options, 'RedisLimiter');
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    const base = `scigate:{${key}}`;
    this.keys = [`${base}:holders`, `${base}:queue`, `${base}:leases`, `${base}:state`];
    this.channel = `${base}:released`;
  }

  hasOptions(options: SlotLimiterOptions): boolean {
    return this.options.concurrency === options.concurrency && this.options.minTimeMs === options.minTimeMs;
  }

  reconfigure(options: SlotLimiterOptions): void {
    checkSlotLimiterOptions(options, 'RedisLimiter');
    this.options = { concurrency: options.concurrency, minTimeMs: options.minTimeMs };
  }

  get runningCount(): number {
    return this.held.size;
  }

  get queuedCount(): number {
    return this.waiting;
  }

  async acquire(signal: AbortSignal, options: AcquireOptions = {}): Promise<() => void> {
    if (signal.aborted) throw signal.reason;
    if (!this.subscribed) {
      this.subscribed = true;
      this.deps.subscriber.listen(this.channel, () => {
        this.changes += 1;
        for (const wake of [...this.wakers]) wake();
      });
    }
    const token = randomUUID();
    const [entered, queued] = await this.run('enter', [token, this.leaseMs, this.options.concurrency, options.queueDepth ?? -1, this.ttlMs()]);
    if (entered === 0) throw new QueueFull(queued);
    this.waiting += 1;
    try {
      await this.waitForSlot(token, signal);
    } catch (error) {
      // Fire and forget: if Redis is gone too, the place's lease runs out on its own.
      void this.run('leave', [token, this.channel]).catch(() => {});
      throw error;
    } finally {
      this.waiting -= 1;
    }
    return this.holding(token);
  }

  /** Asks Redis for the slot until granted: after each "not yet", sleeps until the spacing ends, a release, or POLL_MS. */
  private async waitForSlot(token: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      const changesBefore = this.changes;
      const [state, waitMs] = await this.run('take', [token, this.leaseMs, this.options.concurrency, this.options.minTimeMs, this.ttlMs()]);
      if (signal.aborted) {
        if (state === 1) void this.run('leave', [token, this.channel]).catch(() => {});
        throw signal.reason;
      }
      if (state === 1) return;
      if (state === -1) {
        await this.run('enter', [token, this.leaseMs, this.options.concurrency, -1, this.ttlMs()]);
        continue;
      }
      // A slot freed after Redis ran the TAKE: ask again now rather than sleep through it.
      if (this.changes !== changesBefore) continue;
      await this.changeOrTimeout(waitMs > 0 ? Math.min(waitMs, POLL_MS) : POLL_MS, signal);
    }
  }

  /** Resolves after `ms`, on the next release message, or rejects with the signal's reason. */
  private changeOrTimeout(ms: number, signal: AbortSignal): Promise<void> {
    const over = new AbortController();
    const wake = () => over.abort();
    this.wakers.add(wake);
    signal.addEventListener('abort', wake, { once: true });
    return this.deps.clock.sleep(ms, over.signal).catch(() => {}).then(() => {
      this.wakers.delete(wake);
      signal.removeEventListener('abort', wake);
      if (signal.aborted) throw signal.reason;
    });
  }

  private holding(token: string): () => void {
    this.held.add(token);
    this.renewal ??= setInterval(() => this.renew(), this.leaseMs / 3);
    this.renewal.unref();
    return () => {
      if (!this.held.delete(token)) return;
      if (this.held.size === 0) {
        clearInterval(this.renewal);
        this.renewal = undefined;
      }
      this.run('leave', [token, this.channel]).catch((error: unknown) => {
        this.deps.log.warn({ err: error, limiter: this.key }, 'could not give back a Redis limiter slot; its lease frees it');
      });
    };
  }

  private renew(): void {
    if (this.held.size === 0) return;
    this.run('renew', [this.leaseMs, ...this.held]).catch((error: unknown) => {
      this.deps.log.warn({ err: error, limiter: this.key }, 'could not renew Redis limiter slots');
    });
  }

  /** Keys outlive every lease and the spacing, then expire: an unused limiter leaves nothing behind. */
  private ttlMs(): number {
    return 2 * (this.leaseMs + this.options.minTimeMs);
  }

  private async run(script: keyof RedisLimiterDeps['scripts'], args: Array<string | number>): Promise<[number, number]> {
    try {
      const [a, b] = await this.deps.scripts[script](this.keys, args);
      return [Number(a), Number(b)];
    } catch (error) {
      throw error instanceof GatewayError ? error : redisUnavailable(`the ${this.key} limiter`, error);
    }
  }
}
