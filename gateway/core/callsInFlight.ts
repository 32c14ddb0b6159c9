/** Counts running calls, so that a close can wait for them to end (an upstream client retiring, the broker at a stop). */
export class CallsInFlight {
  private count = 0;
  private waiting: Array<() => void> = [];

  async track<T>(call: () => Promise<T>): Promise<T> {
    this.count += 1;
    try {
      return await call();
    } finally {
      if (--this.count === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** Resolves once no call is running (at once when none is). */
  settled(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
