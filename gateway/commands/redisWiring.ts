/** `--redis` (SCIGATE_REDIS): the live state `serve` and `stdio` share with the other replicas. */
import { UsageError } from '../config/index.js';
import type { Clock, Logger, SecretScrubber } from '../core/index.js';

/** The password in a Redis URL, so no log line or error shows it. */
function redisPassword(url: string): string[] {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password ? [password] : [];
  } catch {
    return [];
  }
}

/**
 * Connects to Redis (`--redis`), loading ioredis only then, after its password joined the scrubbed
 * secrets; an unreachable or malformed URL is a usage error.
 */
export async function openSharedLiveState(url: string, { secrets, log, clock }: { secrets: SecretScrubber; log: Logger; clock: Clock }) {
  secrets.register('redis-password', () => redisPassword(url));
  const { openRedisLiveState } = await import('../../storage/redis/index.js');
  try {
    return await openRedisLiveState({ url, log, clock });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}`);
  }
}
