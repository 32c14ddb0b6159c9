import { GatewayError, type EventHub, type PermissionResolution, type PermissionStore } from '../core/index.js';
import type { WaitOutcome, Waiter } from './pendingRequests.js';
import { storedOutcome } from './replicaDecisions.js';

/** A claimed waiter, how its request ends, and what its action is told. */
export type Resolved = [Waiter, PermissionResolution, WaitOutcome];

/**
 * Persists every resolution, then releases the waiting actions together. A resolution the store
 * refuses was beaten by another replica's decision: that waiter gets what the store says.
 *
 * A resolution the store cannot write (a full disk) must not strand its waiter, claimed and never
 * settled: an allowing or denying one leaves it waiting, unclaimed, so the human can decide again
 * and the timeout or a cancellation can still end it; an ending (timeout, cancellation, session
 * end) ends it anyway, since its action does not run either way. Then the first failure is thrown.
 * With `settleAllowed` (the allowing decision took effect elsewhere: a stored switch to always_allow
 * that nobody can decide against), an allowing one is settled too: its authorization is durable.
 */
export async function finishWaiters(
  deps: { store: PermissionStore; events: EventHub },
  resolved: Resolved[],
  options: { settleAllowed?: boolean } = {},
): Promise<void> {
  const written = await Promise.allSettled(resolved.map(([waiter, resolution]) => deps.store.resolveRequest(waiter.request.id, resolution)));
  let failure: { reason: unknown } | undefined;
  const lost: Waiter[] = [];
  resolved.forEach(([waiter, resolution, outcome], i) => {
    const write = written[i]!;
    if (write.status === 'rejected') {
      failure ??= { reason: write.reason };
      if ('error' in outcome || options.settleAllowed) waiter.settle(outcome);
      else waiter.claimed = false;
      return;
    }
    if (!write.value) return void lost.push(waiter);
    // The request as stored, not read back: a read that failed here would strand the waiter too.
    deps.events.publish('permission_request.resolved', waiter.request.sessionId, { ...waiter.request, ...resolution });
    waiter.settle(outcome);
  });
  for (const waiter of lost) {
    const outcome = await storedOutcome(deps.store, waiter.request.id).catch(() => undefined);
    waiter.settle(outcome ?? { error: new GatewayError('conflict', `Permission request ${waiter.request.id} could not be resolved; call the tool again.`) });
  }
  if (failure) throw failure.reason;
}
