import { boundedWait, leaveOnAbort } from '../core/index.js';

/** What an opening yields: a session that can be closed, with a reason its open requests hear. */
export interface ClosableSession {
  close(reason?: string): Promise<void>;
}

/**
 * The MCP sessions still being opened, so that a stop reaches them too. Opening one awaits its
 * server, which may wait for start-up discovery; a stop closes only the sessions that joined `live`,
 * so one that finished opening after it would join `live` too late and keep its server, its
 * subscriptions and its Session open for good, its client answered after the stop began (or cut off).
 */
export class SessionOpenings<S extends ClosableSession> {
  private readonly pending = new Set<Promise<void>>();

  /** `stopping` aborts when the router stops; `closeReason` is what a session caught opening is closed with. */
  constructor(
    private readonly stopping: AbortSignal,
    private readonly closeReason: string,
  ) {}

  /**
   * Waits for the session being opened, then hands it to `use` in the same turn as the check that
   * the router is not stopping: `use` lets it join `live` before a stop can look there. Resolves
   * false when the router stops first, at once (its client need not wait for a server it will never
   * use): the session is then closed as soon as it exists, and `settled` waits for that.
   */
  async open(opening: Promise<S>, use: (session: S) => Promise<void>): Promise<boolean> {
    const closedIfStopped = opening.then((session) => (this.stopping.aborted ? session.close(this.closeReason) : undefined)).catch(() => {});
    this.pending.add(closedIfStopped);
    void closedIfStopped.then(() => this.pending.delete(closedIfStopped));
    // Left at once when the router stops; an opening that fails on its own still throws.
    const session = await leaveOnAbort(opening, this.stopping).catch((error: unknown) => {
      if (this.stopping.aborted) return undefined;
      throw error;
    });
    if (session === undefined) return false;
    if (this.stopping.aborted) {
      // Opened before the stop, resumed after it: closedIfStopped ran too early to see the stop.
      await session.close(this.closeReason).catch(() => {});
      return false;
    }
    await use(session);
    return true;
  }

  /**
   * Once stopping: waits (at most `limitMs`) until every session caught opening exists and is
   * closed. One slower than that still closes itself when it opens.
   */
  async settled(limitMs: number): Promise<void> {
    await boundedWait(Promise.all(this.pending).then(() => {}), limitMs);
  }
}
