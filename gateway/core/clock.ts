import { GatewayError } from './gatewayError.js';

/** Time as a dependency, so tests can advance it instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with `cancelled` when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fire` after `ms` unless the returned function is called first: a timer without the
   * promise and abort signal of `sleep`, for one armed on every tool call (CallDeadline).
   */
  after(ms: number, fire: () => void): () => void;
}

/** setTimeout's longest delay (2^31 - 1 ms, about 24.8 days): a longer one fires after 1 ms instead. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * setTimeout for any delay: a configured wait past the longest timer (a queue or extraction
 * timeout of 10^10 ms) is slept in turns, so it means "practically never", not "at once".
 */
function after(ms: number, fire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const wait = (left: number) => {
    timer = setTimeout(() => (left > LONGEST_TIMER_MS ? wait(left - LONGEST_TIMER_MS) : fire()), Math.min(left, LONGEST_TIMER_MS));
  };
  wait(ms);
  return () => clearTimeout(timer);
}

/** The wall clock used in production. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(cancelledBy(signal));
      const stop = after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        stop();
        reject(cancelledBy(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  after,
};

/** The error a cancelled wait rejects with: the signal's own GatewayError reason when it has one. */
export function cancelledBy(signal: AbortSignal): GatewayError {
  return signal.reason instanceof GatewayError
    ? signal.reason
    : new GatewayError('cancelled', 'The call was cancelled.');
}
