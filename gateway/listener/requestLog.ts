import type { RequestHandler } from 'express';
import type { Logger } from '../core/index.js';

/**
 * One log line per HTTP request: method, path (no query: it may carry ids only, but never
 * secrets either way), status, duration and the MCP session id. Headers are never logged.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    res.on('finish', () => {
      const sessionId = req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id');
      log.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
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
