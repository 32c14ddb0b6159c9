import type { GatewayError, PermissionAuthorizationRecord, PermissionRequestRecord } from '../core/index.js';

/** How a waiting action ends: with an authorization (allowed or denied) or with an error (expired, cancelled). */
export type WaitOutcome = { authorization: PermissionAuthorizationRecord } | { error: GatewayError };

/** One action waiting for a human, in memory beside its persisted PermissionRequest. */
export interface Waiter {
  readonly request: PermissionRequestRecord;
  /** Set by the first resolver; everyone after it loses (409 for a human, no-op for a timer). */
  claimed: boolean;
  readonly outcome: Promise<WaitOutcome>;
  settle(outcome: WaitOutcome): void;
}

/**
 * The actions of this process that wait for a decision. Claiming is synchronous, so the first
 * decision from any channel (admin API, elicitation, Grant, mode switch, timeout, cancellation)
 * wins and a set of matching requests can be claimed in one step, before anything is awaited.
 */
export class PendingRequests {
  private readonly waiters = new Map<string, Waiter>();

  add(request: PermissionRequestRecord): Waiter {
    let settle!: (outcome: WaitOutcome) => void;
    const outcome = new Promise<WaitOutcome>((resolve) => (settle = resolve));
    const waiter: Waiter = {
      request,
      claimed: false,
      outcome,
      settle: (result) => {
        this.waiters.delete(request.id);
        settle(result);
      },
    };
    this.waiters.set(request.id, waiter);
    return waiter;
  }

  /** Claims one waiter; undefined when it is not waiting here or another resolver claimed it first. */
  claim(requestId: string): Waiter | undefined {
    const waiter = this.waiters.get(requestId);
    if (!waiter || waiter.claimed) return undefined;
    waiter.claimed = true;
    return waiter;
  }

  /** Claims every unclaimed waiter that matches, in one synchronous step. */
  claimWhere(matches: (request: PermissionRequestRecord) => boolean): Waiter[] {
    const claimed = [...this.waiters.values()].filter((w) => !w.claimed && matches(w.request));
    for (const waiter of claimed) waiter.claimed = true;
    return claimed;
  }

  /** Forgets a waiter whose request could not be stored. */
  drop(requestId: string): void {
    this.waiters.delete(requestId);
  }
}
