import { GatewayError } from './gatewayError.js';

/** Time as a dependency, so tests can advance it instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with `cancelled` when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock used in production. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(cancelledBy(signal));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelledBy(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The error a cancelled wait rejects with: the signal's own GatewayError reason when it has one. */
export function cancelledBy(signal: AbortSignal): GatewayError {
  return signal.reason instanceof GatewayError
    ? signal.reason
    : new GatewayError('cancelled', 'The call was cancelled.');
}
