import { Router } from 'express';
import { requireSession, type Clock, type EventHub, type GatewayEvent, type SessionStore } from '../gateway/index.js';

export interface EventRoutesDeps {
  events: EventHub;
  /** `?sessionId=` must name a Session: a mistyped id would otherwise be a stream that never speaks. */
  sessions: Pick<SessionStore, 'get'>;
  clock: Clock;
  /** Comment line sent this often so proxies keep the stream open (default 25 s). */
  heartbeatMs?: number;
}

/**
 * `GET /api/events`: live updates as server-sent events — new permission requests and their
 * resolutions, Grants, approval-mode changes. `?sessionId=` narrows the stream to one Session.
 */
export function eventRoutes(deps: EventRoutesDeps): Router {
  const heartbeatMs = deps.heartbeatMs ?? 25_000;
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 1) throw new Error('eventRoutes: heartbeatMs must be a positive integer');
  const router = Router();
  router.get('/events', async (req, res) => {
    const only = typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined;
    if (only !== undefined) await requireSession(deps.sessions, only);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
    res.write(': scigate events\n\n');
    const send = (event: GatewayEvent) => {
      if (only && event.sessionId !== only) return;
      res.write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify({ sessionId: event.sessionId, data: event.data })}\n\n`);
    };
    const unsubscribe = deps.events.subscribe(send);
    const closed = new AbortController();
    res.on('close', () => {
      unsubscribe();
      closed.abort();
    });
    void (async () => {
      while (!closed.signal.aborted) {
        await deps.clock.sleep(heartbeatMs, closed.signal).then(() => res.write(': keep-alive\n\n'), () => {});
      }
    })();
  });
  return router;
}
