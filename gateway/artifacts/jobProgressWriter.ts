import type { ArtifactStore, Clock } from '../core/index.js';

/** How often a running job's bytes done are written to its record between transitions, in ms. */
export const PERSIST_PROGRESS_EVERY_MS = 1000;

/**
 * Writes a running job's latest bytes done to its record once a second (when they changed), so the
 * API and a restarted gateway see recent progress without a journal write per progress step; the
 * transitions write their own. A resume trusts the part file's size, never this figure.
 */
export function jobProgressWriter(deps: { store: ArtifactStore; clock: Clock }, jobId: string) {
  let latest: { bytesDone: number; totalBytes: number | null } | undefined;
  const stopped = new AbortController();
  void (async () => {
    while (!stopped.signal.aborted) {
      await deps.clock.sleep(PERSIST_PROGRESS_EVERY_MS, stopped.signal).catch(() => {});
      if (stopped.signal.aborted || !latest) continue;
      const { bytesDone, totalBytes } = latest;
      latest = undefined;
      await deps.store.updateJob(jobId, { bytesDone, totalBytes, updatedAt: new Date(deps.clock.now()).toISOString() }).catch(() => {});
    }
  })();
  return {
    note(bytesDone: number, totalBytes: number | null): void {
      latest = { bytesDone, totalBytes };
    },
    /** A transition wrote newer figures: nothing older is written after it. */
    forget(): void {
      latest = undefined;
    },
    /** Called when the job ends: nothing is written after the final transition. */
    stop(): void {
      stopped.abort();
    },
  };
}
