import type { ErrorRequestHandler, RequestHandler, Response, Router } from 'express';
import { allowedMethods } from './allowedMethods.js';
import { GatewayError, fromHttpError, sendHttpError, type Logger } from '../gateway/index.js';

/**
 * Turns anything thrown in a route — or by body parsing and URL decoding before it — into the
 * one `{error: {code, message}}` shape with the right status; never a stack, never HTML.
 */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (thrown, req, res, _next) => {
    const error = fromHttpError(thrown);
    if (error.code === 'internal') log.error({ err: thrown, path: req.path }, 'admin route failed');
    if (res.headersSent) {
      // A streaming answer (events) already started: the only honest thing left is to end it.
      res.end();
      return;
    }
    sendHttpError(res, error);
  };
}

/**
 * JSON 404 for unknown routes, naming the full path asked for and where the routes are listed; a
 * path `router` has under other methods is a 405 with `Allow` and those methods named.
 */
export function unknownRoute(router: Router): RequestHandler {
  return (req, res) => {
    const path = `${req.baseUrl}${req.path}`.slice(0, 200);
    const allowed = allowedMethods(router, req.path);
    if (allowed.length > 0 && !allowed.includes(req.method)) return methodNotAllowed(res, path, req.method, allowed);
    sendHttpError(
      res,
      new GatewayError('not_found', `No route ${req.method} ${path}. The admin API's routes are listed in the README ("Admin API"), e.g. GET /api/sessions, GET /api/mcp/servers.`),
    );
  };
}

/**
 * A 405 for a path that a parameter route would otherwise take for an id (`/mcp/servers/import`
 * read as the server "import"): mounted before it, it answers every method but `allowed`.
 */
export function onlyMethods(...allowed: string[]): RequestHandler {
  return (req, res) => methodNotAllowed(res, `${req.baseUrl}${req.path}`.slice(0, 200), req.method, allowed);
}

/** A 405 with `Allow`, naming the path and the methods it takes. */
function methodNotAllowed(res: Response, path: string, method: string, allowed: string[]): void {
  res.set('Allow', allowed.join(', '));
  sendHttpError(res, new GatewayError('method_not_allowed', `${path} does not take ${method}; it takes ${allowed.join(', ')}.`));
}
