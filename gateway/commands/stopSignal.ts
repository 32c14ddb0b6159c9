import { once } from 'node:events';

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<void> {
  return Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => undefined);
}
