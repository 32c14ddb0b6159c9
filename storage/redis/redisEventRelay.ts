import type { Redis } from 'ioredis';
import type { EventRelay, Logger, RelayedEvent } from '../../gateway/core/index.js';
import type { RedisSubscriber } from './redisConnection.js';

/** The one channel every replica publishes its events on. */
export const EVENTS_CHANNEL = 'scigate:events';

/**
 * Events between replicas over Redis pub/sub: fire and forget, like the live updates they carry.
 * Pub/sub rather than PostgreSQL LISTEN/NOTIFY: the replicas already share Redis for the limiters,
 * an event is not state (the store holds what a waiter re-reads), and NOTIFY payloads stop at
 * 8000 bytes while a permission request's arguments can be larger.
 */
export function createRedisEventRelay(client: Redis, subscriber: RedisSubscriber, log: Logger): EventRelay {
  let failing = false;
  return {
    send(event) {
      let message: string;
      try {
        message = JSON.stringify(event);
      } catch (error) {
        log.warn({ err: error, type: event.type }, 'an event that is not JSON stays on this replica');
        return;
      }
      client.publish(EVENTS_CHANNEL, message).then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          if (!failing) log.warn({ err: error }, 'events cannot reach the other replicas while Redis does not answer');
          failing = true;
        },
      );
    },
    listen(onEvent) {
      return subscriber.listen(EVENTS_CHANNEL, (message) => {
        let event: RelayedEvent;
        try {
          event = JSON.parse(message) as RelayedEvent;
        } catch {
          return;
        }
        if (typeof event?.replica === 'string' && typeof event.type === 'string') onEvent(event);
      });
    },
  };
}
