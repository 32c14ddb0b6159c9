import { afterAll, afterEach, beforeAll } from 'vitest';

/** What an adapter that needs a server (PostgreSQL) starts once per file and stops at its end. */
export interface AdapterLifetime {
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/**
 * Inside a `describe`: `create` makes a fresh place per call (a store, a pair of secret stores),
 * and everything it registered is released after each test, in reverse order of registration
 * (so a store is closed before its directory is removed).
 */
export function perTest<T>(adapter: AdapterLifetime, create: (cleanup: (release: () => Promise<void>) => void) => Promise<T>): () => Promise<T> {
  let releases: Array<() => Promise<void>> = [];
  if (adapter.start && adapter.stop) {
    beforeAll(() => adapter.start!());
    afterAll(() => adapter.stop!());
  }
  afterEach(async () => {
    for (const release of releases.reverse()) await release();
    releases = [];
  });
  return () => create((release) => releases.push(release));
}
