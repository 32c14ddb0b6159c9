import type { GatewayError } from './gatewayError.js';
import type { Clock } from './clock.js';

/** A timer on a CallDeadline: `signal` aborts with the expiry error; `dispose` stops it. */
export interface DeadlineTimer {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * The tool time of one call (seed §8 "beginExternalWait"). A stage that waits for something other
 * than the tool — a human deciding a permission request — opens an external-wait hold; every timer
 * on the deadline (the per-attempt tool timeout) stops while a hold is open and resumes with the
 * time it had left. Held time is never charged, whatever the order of the stages.
 */
export class CallDeadline {
  private holds = 0;
  private heldSince = 0;
  private heldTotalMs = 0;
  private readonly startedAt: number;
  /** Aborted (and dropped) at the next hold/release transition; made only when something waits for one. */
  private transition: AbortController | undefined;
  /** The running timers' re-evaluations: a transition runs each, so it stops or restarts its clock. */
  private readonly rearms = new Set<() => void>();

  constructor(private readonly clock: Clock) {
    this.startedAt = clock.now();
  }

  /** True while at least one external wait is open. */
  get held(): boolean {
    return this.holds > 0;
  }

  /** Opens an external wait; the returned function closes it (calling it twice is harmless). Holds nest. */
  beginExternalWait(): () => void {
    if (this.holds++ === 0) {
      this.heldSince = this.clock.now();
      this.flip();
    }
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      if (--this.holds === 0) {
        this.heldTotalMs += this.clock.now() - this.heldSince;
        this.flip();
      }
    };
  }

  /** Milliseconds spent in external waits so far. */
  heldMs(): number {
    return this.heldTotalMs + (this.held ? this.clock.now() - this.heldSince : 0);
  }

  /** Milliseconds charged to the call so far: wall time since it started minus held time. */
  chargedMs(): number {
    return this.clock.now() - this.startedAt - this.heldMs();
  }

  /** Resolves once no external wait is open (at once when none is); rejects when `signal` aborts. */
  async whenReleased(signal?: AbortSignal): Promise<void> {
    while (this.held) {
      if (signal?.aborted) throw signal.reason;
      this.transition ??= new AbortController();
      await abortOf(signal ? AbortSignal.any([signal, this.transition.signal]) : this.transition.signal);
    }
  }

  /**
   * A timer that expires after `timeoutMs` of charged (unheld) time from now, aborting with `expired()`;
   * with `cancel`, its signal also aborts (with cancel's reason) when that one does, until `dispose`.
   * While a hold is open nothing runs; each transition re-arms it with the time it has left. One
   * clock timer at a time and no sleep promise or wake-up signal per arming: every tool call arms one.
   */
  timer(timeoutMs: number, expired: () => GatewayError, cancel?: AbortSignal): DeadlineTimer {
    const controller = new AbortController();
    const onCancel = () => controller.abort(cancel!.reason);
    if (cancel?.aborted) onCancel();
    else cancel?.addEventListener('abort', onCancel, { once: true });
    const endsAt = this.chargedMs() + timeoutMs;
    let stop: (() => void) | undefined;
    const rearm = () => {
      stop?.();
      stop = undefined;
      if (this.held) return;
      const leftMs = endsAt - this.chargedMs();
      if (leftMs > 0) stop = this.clock.after(leftMs, rearm);
      else {
        this.rearms.delete(rearm);
        controller.abort(expired());
      }
    };
    this.rearms.add(rearm);
    rearm();
    return {
      signal: controller.signal,
      dispose: () => {
        this.rearms.delete(rearm);
        stop?.();
        stop = undefined;
        cancel?.removeEventListener('abort', onCancel);
      },
    };
  }

  private flip(): void {
    const previous = this.transition;
    this.transition = undefined;
    previous?.abort();
    for (const rearm of [...this.rearms]) rearm();
  }
}

function abortOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
