import type { NodeStreamableTransport } from './nodeStreamableTransport.js';
import type { Clock } from '../core/index.js';

export interface SessionLimits {
  /** A session with no request for this long is closed (ms). */
  idleTimeoutMs: number;
  /** Most open sessions; a new one evicts the longest-idle, or is refused when all are busy. */
  maxSessions: number;
}

/** The defaults of `--session-idle-timeout` and `--max-sessions`. */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleTimeoutMs: 30 * 60_000, maxSessions: 1000 };

/** How long a session must have been idle before a newcomer at the cap may evict it. */
export const EVICTION_GRACE_MS = 10_000;

interface LiveSession {
  transport: NodeStreamableTransport;
  /** Requests of this session still open (a tool call in flight, a standing SSE stream). */
  inFlight: number;
  lastActiveAt: number;
}

/** A place under the cap held for a session still being opened. */
export interface SessionReservation {
  /** Gives the place back (the session joined, or will never); idempotent. */
  release(): void;
}

/**
 * The open MCP sessions over HTTP and how recently each was used. A client that vanished without
 * DELETE leaves no request open, so it turns idle and is closed; a busy one (a tool call, a human
 * deciding, a standing stream) never is.
 */
export class LiveSessions {
  private readonly sessions = new Map<string, LiveSession>();
  /**
   * Sessions being opened: each counts against the cap from the moment it passes the check, since
   * opening one awaits its server (start-up discovery) and concurrent initializes would otherwise all
   * pass the check before any of them joined.
   */
  private reserved = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  add(id: string, transport: NodeStreamableTransport): void {
    this.sessions.set(id, { transport, inFlight: 0, lastActiveAt: this.clock.now() });
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Holds a place for a session about to be opened; undefined when no session more fits. */
  reserve(): SessionReservation | undefined {
    if (this.full) return undefined;
    this.reserved += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.reserved -= 1;
      },
    };
  }

  transport(id: string): NodeStreamableTransport | undefined {
    return this.sessions.get(id)?.transport;
  }

  transports(): NodeStreamableTransport[] {
    return [...this.sessions.values()].map((s) => s.transport);
  }

  /** Marks a request of the session as open; the returned function marks it ended (idempotent). */
  begin(id: string): () => void {
    const session = this.sessions.get(id);
    if (!session) return () => {};
    session.inFlight += 1;
    session.lastActiveAt = this.clock.now();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      session.inFlight -= 1;
      session.lastActiveAt = this.clock.now();
    };
  }

  /** Sessions with nothing open for longer than the idle timeout. */
  expired(): NodeStreamableTransport[] {
    const cutoff = this.clock.now() - this.limits.idleTimeoutMs;
    return [...this.sessions.values()].filter((s) => s.inFlight === 0 && s.lastActiveAt <= cutoff).map((s) => s.transport);
  }

  /**
   * When full: the longest-idle session to close so a new one fits (undefined: room, or all are
   * busy). One idle for less than EVICTION_GRACE_MS is busy too: a client that just initialized
   * has not sent its next request yet, and at the cap concurrent initializes would otherwise evict
   * each other's brand-new sessions (each client then re-initializing on its 404).
   */
  evictionCandidate(): NodeStreamableTransport | undefined {
    if (!this.full) return undefined;
    const cutoff = this.clock.now() - EVICTION_GRACE_MS;
    const idle = [...this.sessions.values()].filter((s) => s.inFlight === 0 && s.lastActiveAt <= cutoff);
    return idle.sort((a, b) => a.lastActiveAt - b.lastActiveAt)[0]?.transport;
  }

  /** True when no session more fits (open and opening ones counted), unless one is evicted. */
  get full(): boolean {
    return this.sessions.size + this.reserved >= this.limits.maxSessions;
  }

  /** How often to look for idle sessions: a quarter of the timeout, between 1 s and 1 min. */
  get sweepEveryMs(): number {
    return Math.min(60_000, Math.max(1000, Math.floor(this.limits.idleTimeoutMs / 4)));
  }
}
