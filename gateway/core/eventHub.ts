/** One live update for the admin page (`GET /api/events`): permission requests, grants, sessions. */
export interface GatewayEvent {
  /** Increasing per process; the SSE `id`. */
  seq: number;
  type: string;
  sessionId: string | null;
  data: unknown;
  /** The replica that published it, when another one did (events relayed between replicas). */
  replica?: string;
}

/** An event as it travels between replicas: who sent it, and what. */
export interface RelayedEvent {
  replica: string;
  type: string;
  sessionId: string | null;
  data: unknown;
}

/**
 * Carries events between the replicas of one deployment (Redis pub/sub). Sending never throws and
 * never waits: an event that cannot be relayed is still delivered in its own process.
 */
export interface EventRelay {
  send(event: RelayedEvent): void;
  /** Calls `onEvent` for every event any replica sends (its own included); returns stop. */
  listen(onEvent: (event: RelayedEvent) => void): () => void;
}

export type GatewayEventListener = (event: GatewayEvent) => void;

/**
 * Publish/subscribe for live updates; a listener that throws never stops the others. Listeners in
 * this process get an event at once; with a relay (several replicas) every other replica's events
 * arrive too, marked with the `replica` that published them.
 */
export class EventHub {
  private seq = 0;
  private readonly listeners = new Set<GatewayEventListener>();
  private relay: { to: EventRelay; replica: string; stop: () => void } | undefined;

  /** Shares this hub's events with the other replicas through `relay`; `replica` names this one. */
  connect(relay: EventRelay, replica: string): void {
    this.relay?.stop();
    const stop = relay.listen((event) => {
      if (event.replica !== replica) this.deliver({ seq: ++this.seq, ...event });
    });
    this.relay = { to: relay, replica, stop };
  }

  /** True when events travel between replicas (then a decision may be for an action waiting on another one). */
  get relayed(): boolean {
    return this.relay !== undefined;
  }

  /** Stops relaying (the process is shutting down). */
  disconnect(): void {
    this.relay?.stop();
    this.relay = undefined;
  }

  publish(type: string, sessionId: string | null, data: unknown): GatewayEvent {
    const event: GatewayEvent = { seq: ++this.seq, type, sessionId, data };
    this.relay?.to.send({ replica: this.relay.replica, type, sessionId, data });
    this.deliver(event);
    return event;
  }

  private deliver(event: GatewayEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed HTTP stream) must not break the publisher.
      }
    }
  }

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: GatewayEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Current subscribers (for tests and readiness). */
  get subscriberCount(): number {
    return this.listeners.size;
  }
}
