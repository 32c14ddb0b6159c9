import { cancelledBy } from './clock.js';

/**
 * Waits for shared work (a connection attempt other calls wait for too) as one of its callers:
 * when this caller's signal aborts, the caller stops waiting at once with its cancellation, and the
 * work goes on for the others.
 */
export function leaveOnAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(cancelledBy(signal));
  return new Promise<T>((resolve, reject) => {
    const leave = () => reject(cancelledBy(signal));
    signal.addEventListener('abort', leave, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
  });
}
