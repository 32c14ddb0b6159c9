import type { Clock, ExtractionStore, Logger } from '../core/index.js';

/** Why a job found queued or running at start-up was failed. */
export const INTERRUPTED_REASON = 'The gateway stopped while this extraction was queued or running; call paper_extract_pdf again.';

/**
 * A job left queued or running by a crash or stop has no worker any more: fail it with a reason
 * before serving, so nobody waits on it. With `alive` (replica ids sharing the store), only the jobs
 * of replicas not in it. Resolves with how many were failed.
 */
export async function failUnfinishedExtractions(
  deps: { store: ExtractionStore; clock: Clock; log: Logger }, alive?: readonly string[],
): Promise<number> {
  const count = await deps.store.failUnfinished(new Date(deps.clock.now()).toISOString(), INTERRUPTED_REASON, alive);
  if (count > 0) deps.log.warn({ count }, 'failed extraction jobs left unfinished by the previous run');
  return count;
}
