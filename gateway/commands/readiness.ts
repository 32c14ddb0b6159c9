import type { SettingsStore, SharedLiveState } from '../core/index.js';

/** Longest a readiness check waits for one dependency (a load balancer probes every few seconds). */
const CHECK_TIMEOUT_MS = 2000;

/**
 * What /readyz checks: the store answers a read, and Redis (when configured) a PING. A replica
 * that fails either is taken out of the load balancer's rotation until it answers again.
 */
export function readinessChecks(storage: { settings: SettingsStore }, shared?: SharedLiveState): () => Promise<Record<string, string | undefined>> {
  return async () => {
    const [store, redis] = await Promise.all([
      bounded(storage.settings.connectors().then(() => undefined, (error: unknown) => `the store does not answer (${messageOf(error)})`)),
      shared ? bounded(shared.unavailableReason()) : Promise.resolve(undefined),
    ]);
    return { store, ...(shared ? { redis } : {}) };
  };
}

function bounded(check: Promise<string | undefined>): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
