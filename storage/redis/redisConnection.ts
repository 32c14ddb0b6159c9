import { Redis } from 'ioredis';
import { GatewayError, type Logger } from '../../gateway/core/index.js';

/** How long one Redis command may take before the call that needs it fails (retryable). */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** The URL with its password hidden, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/** A Redis failure as the caller's retryable error, naming what it was for. */
export function redisUnavailable(what: string, error: unknown): GatewayError {
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayError('storage_unavailable', `Redis did not answer for ${what} (${reason.slice(0, 200)}); try again shortly.`, {
    retryable: true,
  });
}

/**
 * Connects to Redis and waits until it answers. Commands never queue while the connection is down
 * (they fail at once, retryable) and each has a timeout, so no call hangs on a lost Redis; the
 * client keeps reconnecting in the background and logs each loss and recovery once.
 */
export async function connectRedis(url: string, log: Logger, name: string): Promise<Redis> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GatewayError('invalid_input', 'The Redis URL is not a URL; give it as redis://[user:password@]host:port[/db] (--redis, SCIGATE_REDIS).');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new GatewayError('invalid_input', `The Redis URL must start with redis:// or rediss://, not ${parsed.protocol}// (--redis, SCIGATE_REDIS).`);
  }
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: name,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  watchHealth(client, log, redactRedisUrl(url));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new GatewayError('storage_unavailable', `Cannot reach Redis at ${redactRedisUrl(url)} (${reason.slice(0, 200)}). Start Redis or fix --redis (SCIGATE_REDIS).`);
  }
  return client;
}

function watchHealth(client: Redis, log: Logger, where: string): void {
  let lost = false;
  client.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    log.warn({ redis: where, err: { message: error.message } }, 'Redis connection lost: shared limiters answer storage_unavailable until it is back');
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    log.info({ redis: where }, 'Redis connection is back');
  });
}

/**
 * One subscriber connection for the process: channels are subscribed while someone listens and
 * resubscribed by the client after a reconnect.
 */
export class RedisSubscriber {
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  private constructor(
    private readonly client: Redis,
    private readonly log: Logger,
  ) {
    client.on('message', (channel: string, message: string) => {
      for (const handler of [...(this.handlers.get(channel) ?? [])]) handler(message);
    });
    // A subscribe sent while the connection was down failed: after a reconnect, subscribe them all again.
    client.on('ready', () => {
      if (this.handlers.size > 0) this.client.subscribe(...this.handlers.keys()).catch(() => {});
    });
  }

  static async open(commands: Redis, log: Logger): Promise<RedisSubscriber> {
    const client = commands.duplicate();
    await client.connect();
    return new RedisSubscriber(client, log);
  }

  /** Calls `handler` for each message on `channel`; returns the unsubscribe function. */
  listen(channel: string, handler: (message: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.client.subscribe(channel).catch((error: unknown) => this.log.warn({ err: error, channel }, 'Redis subscribe failed; it is retried on reconnect'));
    }
    set.add(handler);
    return () => {
      const current = this.handlers.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(channel);
      this.client.unsubscribe(channel).catch(() => {});
    };
  }

  close(): void {
    this.client.disconnect();
  }
}
