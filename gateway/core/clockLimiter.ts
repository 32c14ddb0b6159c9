import type { Clock } from './clock.js';
import { QueueFull, checkSlotLimiterOptions, type AcquireOptions, type SlotLimiter, type SlotLimiterOptions } from './slotLimiter.js';

export type ClockLimiterOptions = SlotLimiterOptions;

interface Waiter {
  grant: () => void;
}

/**
 * A FIFO limiter on the injected clock: at most `concurrency` slots held, grants at least
 * `minTimeMs` apart. A waiter that gives up (cancelled, timed out) leaves the queue at once, so
 * the queue length is exactly the calls still waiting. Bottleneck does the same over Redis for
 * several replicas; one process needs only this, and its waits are testable with a fake clock.
 */
export class ClockLimiter implements SlotLimiter {
  private readonly queue: Waiter[] = [];
  private running = 0;
  private nextGrantAt = Number.NEGATIVE_INFINITY;
  private spacing: Promise<void> | undefined;

  constructor(
    private options: ClockLimiterOptions,
    private readonly clock: Clock,
  ) {
    checkSlotLimiterOptions(options, 'ClockLimiter');
  }

  /** True when these are the limits it enforces now. */
  hasOptions(options: ClockLimiterOptions): boolean {
    return this.options.concurrency === options.concurrency && this.options.minTimeMs === options.minTimeMs;
  }

  /**
   * Enforces new limits from now on (an admin changed them): calls holding slots keep them, a
   * raised concurrency grants queued calls at once, a lowered one waits for releases.
   */
  reconfigure(options: ClockLimiterOptions): void {
    checkSlotLimiterOptions(options, 'ClockLimiter');
    this.options = { concurrency: options.concurrency, minTimeMs: options.minTimeMs };
    this.pump();
  }

  /** Slots held now. */
  get runningCount(): number {
    return this.running;
  }

  /** Calls waiting for a slot. */
  get queuedCount(): number {
    return this.queue.length;
  }

  /** True when a new caller would get a slot without queueing behind anyone. */
  get hasIdleSlot(): boolean {
    return this.running < this.options.concurrency && this.queue.length === 0;
  }

  /**
   * A slot now, without queueing, when one is free and the spacing allows it; otherwise undefined
   * (then `acquire` waits in line). The common case of an idle source costs no promise or timer.
   */
  tryAcquire(): (() => void) | undefined {
    if (this.spacing || this.queue.length > 0 || this.running >= this.options.concurrency) return undefined;
    const now = this.clock.now();
    if (this.nextGrantAt > now) return undefined;
    this.running += 1;
    this.nextGrantAt = now + this.options.minTimeMs;
    return this.releaser();
  }

  /**
   * Waits for a slot and resolves with its release function (call it exactly once). Rejects with
   * `signal.reason` when the signal aborts first (the caller decides what that means), and with
   * QueueFull when `queueDepth` callers wait already and no slot is idle.
   */
  acquire(signal: AbortSignal, options: AcquireOptions = {}): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (options.queueDepth !== undefined && this.queue.length >= options.queueDepth && !this.hasIdleSlot) {
      return Promise.reject(new QueueFull(this.queue.length));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  private releaser(): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.running -= 1;
      this.pump();
    };
  }

  /** Grants slots to the head of the queue while there are free ones, keeping the spacing. */
  private pump(): void {
    while (!this.spacing && this.queue.length > 0 && this.running < this.options.concurrency) {
      const waitMs = this.nextGrantAt - this.clock.now();
      if (waitMs > 0) {
        this.spacing = this.clock.sleep(waitMs).then(() => {
          this.spacing = undefined;
          this.pump();
        });
        return;
      }
      const waiter = this.queue.shift()!;
      this.running += 1;
      this.nextGrantAt = this.clock.now() + this.options.minTimeMs;
      waiter.grant();
    }
  }
}
