import type { CustomServerStore, EventHub, Logger } from '../core/index.js';

/** How often a replica asks the shared store whether another replica changed a server or a login. */
export const SYNC_CHECK_MS = 2_000;

/** The events after which a replica looks at the store at once (relayed from the others with --redis). */
export const CUSTOM_SERVERS_CHANGED = 'custom_servers.changed';
const OAUTH_EVENT = 'custom_server.oauth';

export interface CustomServerSync {
  /** Reloads now if another replica changed something since the last check. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Keeps one replica's custom servers and OAuth logins in step with a store the others write too.
 * The store's change token (PostgreSQL: a revision bumped in the transaction of every write) is read
 * every SYNC_CHECK_MS, before the server list is answered, and at once when another replica's event
 * arrives over the Redis relay. Polling one row is what makes a replica converge without Redis, and
 * it keeps the token the single truth: an event lost by pub/sub only delays the reload to the next
 * tick. (LISTEN/NOTIFY would need a connection held outside the pool; the poll is one indexed read.)
 */
export function startCustomServerSync(deps: { store: CustomServerStore; events?: EventHub; log: Logger; reload(): Promise<void> }): CustomServerSync {
  const changeToken = deps.store.changeToken?.bind(deps.store);
  if (!changeToken) return { check: async () => {}, stop: () => {} };
  let seen: string | undefined;
  let tail: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  let failing = false;
  const once = async () => {
    const token = await changeToken();
    if (token === seen) return;
    deps.log.debug({ revision: token }, 'loading the custom servers and OAuth logins other replicas changed');
    await deps.reload();
    seen = token;
  };
  const check = (): Promise<void> => {
    // A check asked for while one runs waits for it and then reads the token again, so a change made
    // meanwhile is seen; any number of such requests share that one next check.
    if (queued) return queued;
    const next = tail
      .then(() => {
        queued = undefined;
        return once();
      })
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          if (!failing) deps.log.warn({ err: error }, 'custom servers changed by other replicas could not be loaded; retrying');
          failing = true;
        },
      );
    queued = next;
    tail = next;
    return next;
  };
  void check();
  const timer = setInterval(() => void check(), SYNC_CHECK_MS);
  timer.unref();
  const unsubscribe = deps.events?.subscribe((event) => {
    if (event.replica !== undefined && (event.type === CUSTOM_SERVERS_CHANGED || event.type === OAUTH_EVENT)) void check();
  });
  return {
    check,
    stop: () => {
      clearInterval(timer);
      unsubscribe?.();
    },
  };
}
