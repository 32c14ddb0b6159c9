import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/index.js';

/**
 * One log line per HTTP request: method, path (no query: it may carry ids only, but never
 * secrets either way), status, duration and the MCP session id. Headers are never logged.
 * Answered requests log at `debug` (every tool call is one, so `info` stays quiet under load);
 * refused and failed ones (status ≥ 400) at `info`. Plain Node request and response suffice.
 */
export function requestLog(log: Logger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const startedAt = performance.now();
    res.on('finish', () => {
      const refused = res.statusCode >= 400;
      // Every tool call is an answered request: at `info` nothing of it is built.
      if (!refused && log.isLevelEnabled?.('debug') === false) return;
      const sessionId = req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id');
      const write = refused ? log.info : log.debug;
      write.call(
        log,
        {
          method: req.method,
          // express rewrites `url` inside mounted routers; `originalUrl` keeps what the client asked.
          path: ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0],
          status: res.statusCode,
          durationMs: Math.round(performance.now() - startedAt),
          ...(typeof sessionId === 'string' ? { sessionId } : {}),
        },
        'http request',
      );
    });
    next();
  };
}
