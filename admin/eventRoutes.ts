import { Router } from 'express';
import { requireSession, type Clock, type CurrentToken, type EventHub, type GatewayEvent, type SessionStore } from '../gateway/index.js';
import { parseQueryParams } from './queryParams.js';

export interface EventRoutesDeps {
  events: EventHub;
  /** `?sessionId=` must name a Session: a mistyped id would otherwise be a stream that never speaks. */
  sessions: Pick<SessionStore, 'get'>;
  clock: Clock;
  /** Comment line sent this often so proxies keep the stream open (default 25 s). */
  heartbeatMs?: number;
  /** The admin token in force: a stream lives only while it is still the one the stream was opened with. */
  token: CurrentToken;
  /** Tells `listener` each time the token in force changes (returns its removal); absent, a stream is checked before each event only. */
  tokenChanges?: (listener: () => void) => () => void;
}

/**
 * Bytes a stream may hold that its client has not taken yet (beyond what the kernel buffers). A
 * client this far behind has stopped reading: its stream is ended, not grown without bound; the
 * admin page reconnects and reloads what it missed.
 */
const MAX_UNSENT_BYTES = 1024 * 1024;

/** The last words of a stream whose token was replaced (`scigate token --rotate`), before it ends. */
const TOKEN_REPLACED_COMMENT = ': the admin token this stream was opened with was replaced; open /api/events again with the current one (`scigate token` prints it)';

/**
 * `GET /api/events`: live updates as server-sent events — new permission requests and their
 * resolutions, Grants, approval-mode changes. `?sessionId=` narrows the stream to one Session.
 * A stream lives only while the token it was opened with is in force: a rotation is meant to shut
 * out whoever held the old token, open streams included.
 */
export function eventRoutes(deps: EventRoutesDeps): Router {
  const heartbeatMs = deps.heartbeatMs ?? 25_000;
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 1) throw new Error('eventRoutes: heartbeatMs must be a positive integer');
  const router = Router();
  router.get('/events', async (req, res) => {
    // Read before any await: the bearer check has just passed, so this is the token the request presented.
    const openedWith = deps.token();
    // Given twice or misspelt, the filter is refused: ignored, it would stream every Session's events.
    const only = parseQueryParams(req.query, ['sessionId']).sessionId;
    if (only !== undefined) await requireSession(deps.sessions, only);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
    res.write(': scigate events\n\n');
    const replaced = (): boolean => {
      if (deps.token() === openedWith) return false;
      if (!res.writableEnded) res.end(`${TOKEN_REPLACED_COMMENT}\n\n`);
      return true;
    };
    const write = (text: string) => {
      if (res.writableLength > MAX_UNSENT_BYTES) res.destroy();
      else res.write(text);
    };
    const send = (event: GatewayEvent) => {
      if (only && event.sessionId !== only) return;
      if (replaced()) return;
      write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify({ sessionId: event.sessionId, data: event.data })}\n\n`);
    };
    const unsubscribe = deps.events.subscribe(send);
    const stopWatching = deps.tokenChanges?.(replaced) ?? (() => {});
    const closed = new AbortController();
    res.on('close', () => {
      unsubscribe();
      stopWatching();
      closed.abort();
    });
    // Replaced while the Session was looked up: ended before any event.
    if (replaced()) return;
    void (async () => {
      while (!closed.signal.aborted) {
        await deps.clock.sleep(heartbeatMs, closed.signal).then(() => replaced() || write(': keep-alive\n\n'), () => {});
      }
    })();
  });
  return router;
}

