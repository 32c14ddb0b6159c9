import { linkSignals } from './linkedSignal.js';

/**
 * A service's work under way, for a gateway that stops: each piece runs with a signal that also
 * aborts at `stop`, and `stop` resolves once none runs, so nothing writes after the stores close.
 * (A stop must not read as the client cancelling: the services tell the two apart by `stopped`.)
 */
export class StoppableWork {
  private readonly stopping = new AbortController();
  private readonly underWay = new Set<Promise<unknown>>();

  /** True once `stop` was called. */
  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Aborted by `stop`, with its reason. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  /**
   * Runs `work` with a signal that aborts at the stop, or when `signal` (the caller's, if it can
   * cancel) does; awaited by `stop`. After the stop nothing starts: the call is refused with the
   * stop's reason.
   */
  run<T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopping.signal.reason);
    const linked = signal ? linkSignals([signal, this.stopping.signal]) : { signal: this.stopping.signal, release: () => {} };
    const piece = work(linked.signal).finally(linked.release);
    this.underWay.add(piece);
    const done = () => void this.underWay.delete(piece);
    piece.then(done, done);
    return piece;
  }

  /** Aborts every piece with `reason` and resolves once none runs (new pieces started meanwhile included). */
  async stop(reason: Error): Promise<void> {
    this.stopping.abort(reason);
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay]);
  }
}
