import type { Clock } from './clock.js';
import { ClockLimiter } from './clockLimiter.js';
import type { LimiterFactory, SlotLimiter } from './slotLimiter.js';

/** Waits until the group's next request may go out; rejects with `signal.reason` when it aborts. */
export type RequestPacer = (signal?: AbortSignal) => Promise<void>;

/**
 * Request spacing shared by group, on the gateway's clock: every source that spends one provider
 * budget (PubMed, ClinVar and GEO all spend NCBI's) asks for the same group and waits on one
 * limiter, so their requests together keep the provider's rate. The first caller of a group sets
 * its spacing. `create` makes each group's limiter: in-process by default, in Redis when the
 * replicas of a deployment must keep the rate together.
 */
export function createRequestPacers(clock: Clock, create?: LimiterFactory): (group: string, minTimeMs: number) => RequestPacer {
  const make = create ?? ((_group, options) => new ClockLimiter(options, clock));
  const limiters = new Map<string, SlotLimiter>();
  return (group, minTimeMs) => {
    let limiter = limiters.get(group);
    if (!limiter) {
      limiter = make(group, { concurrency: 1, minTimeMs });
      limiters.set(group, limiter);
    }
    const shared = limiter;
    // A slot held for no time at all: the limiter's spacing between grants is the pacing.
    // A signal of its own when none is given: waiters must not pile listeners on one shared signal.
    return async (signal) => (await shared.acquire(signal ?? new AbortController().signal))();
  };
}
