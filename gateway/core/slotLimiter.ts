/** Limits a limiter enforces: slots held at once and the least time between two grants. */
export interface SlotLimiterOptions {
  /** Most slots held at once. */
  concurrency: number;
  /** Least time between two slot grants, in ms (a provider's request spacing). */
  minTimeMs: number;
}

/** How one caller asks for a slot. */
export interface AcquireOptions {
  /**
   * Refuse (reject with QueueFull) instead of queueing when this many callers wait already and no
   * slot is idle. Unset: always queue.
   */
  queueDepth?: number;
}

/**
 * A concurrency + spacing limiter with a FIFO queue. The embedded one is `ClockLimiter` (one
 * process); `storage/redis` holds the same limits in Redis for every replica.
 */
export interface SlotLimiter {
  /**
   * Waits for a slot and resolves with its release function (call it exactly once). Rejects with
   * `signal.reason` when the signal aborts first, with QueueFull when `queueDepth` is reached, and
   * with a retryable GatewayError when the engine that holds shared limits does not answer.
   */
  acquire(signal: AbortSignal, options?: AcquireOptions): Promise<() => void>;
  /** A slot at once when one is idle and nobody waits, else undefined; offered by in-process limiters (no round trip to ask). */
  tryAcquire?(): (() => void) | undefined;
  /** True when these are the limits it enforces now. */
  hasOptions(options: SlotLimiterOptions): boolean;
  /** Enforces new limits from now on; slots held keep running. */
  reconfigure(options: SlotLimiterOptions): void;
  /** Slots this process holds now. */
  readonly runningCount: number;
  /** Calls of this process waiting for a slot. */
  readonly queuedCount: number;
}

/** Makes the limiter for one key (a source id or a limit group). */
export type LimiterFactory = (key: string, options: SlotLimiterOptions) => SlotLimiter;

/** The queue already holds `queued` waiters and no slot is idle: the caller is refused, not queued. */
export class QueueFull extends Error {
  override readonly name = 'QueueFull';
  constructor(readonly queued: number) {
    super(`${queued} calls are queued already`);
  }
}

/** Refuses options a limiter cannot enforce; `who` names the limiter in the message. */
export function checkSlotLimiterOptions(options: SlotLimiterOptions, who: string): void {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new Error(`${who}: concurrency must be a positive integer`);
  if (!(options.minTimeMs >= 0)) throw new Error(`${who}: minTimeMs must be 0 or more`);
}
