/**
 * The releases (a switch to always_allow, an allow_matching decision) still being written, per
 * Session. Their writes come before the record that releases later actions (the stored mode, the
 * Grant), so an action that looks in between finds neither; it waits for them here and looks again
 * instead of starting to wait for a human that the release was about to make unnecessary.
 */
export class ReleasesInFlight {
  private readonly bySession = new Map<string, Set<Promise<void>>>();

  /** Tracks `work` for the Session until it settles; returns it unchanged. Call in the tick that claims. */
  track<T>(sessionId: string, work: Promise<T>): Promise<T> {
    const inFlight = this.bySession.get(sessionId) ?? new Set<Promise<void>>();
    this.bySession.set(sessionId, inFlight);
    const settled = work.then(() => {}, () => {});
    inFlight.add(settled);
    void settled.then(() => {
      inFlight.delete(settled);
      if (inFlight.size === 0 && this.bySession.get(sessionId) === inFlight) this.bySession.delete(sessionId);
    });
    return work;
  }

  /** Resolves once the Session's releases in flight now have settled (never rejects); undefined when there are none. */
  settled(sessionId: string): Promise<void> | undefined {
    const inFlight = this.bySession.get(sessionId);
    return inFlight ? Promise.all(inFlight).then(() => {}) : undefined;
  }
}
