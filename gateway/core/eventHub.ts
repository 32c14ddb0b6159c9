/** One live update for the admin page (`GET /api/events`): permission requests, grants, sessions. */
export interface GatewayEvent {
  /** Increasing per process; the SSE `id`. */
  seq: number;
  type: string;
  sessionId: string | null;
  data: unknown;
}

export type GatewayEventListener = (event: GatewayEvent) => void;

/** In-process publish/subscribe for live updates; a listener that throws never stops the others. */
export class EventHub {
  private seq = 0;
  private readonly listeners = new Set<GatewayEventListener>();

  publish(type: string, sessionId: string | null, data: unknown): GatewayEvent {
    const event: GatewayEvent = { seq: ++this.seq, type, sessionId, data };
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed HTTP stream) must not break the publisher.
      }
    }
    return event;
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
