import { createHash, timingSafeEqual } from 'node:crypto';
import { json, type RequestHandler, type Response } from 'express';
import { GatewayError } from '../core/index.js';
import { httpStatusOf, sendHttpError } from './httpErrors.js';
import { sendRpcError } from './rpcErrors.js';

/** Hosts a loopback-bound gateway answers to; anything else is a DNS-rebinding attempt. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/** Compares two secrets in constant time (hashing first, so lengths leak nothing either). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Requires `Authorization: Bearer <token>`; answers 401 with a JSON error otherwise — the admin
 * shape, or with `jsonRpc` (the /mcp edge) a JSON-RPC error, so /mcp never answers another shape.
 */
export function requireBearer(token: string, options: { jsonRpc?: boolean } = {}): RequestHandler {
  // The token's digest once, not per request (every tool call passes here).
  const expected = digest(token);
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match && timingSafeEqual(digest(match[1]!.trim()), expected)) return next();
    res.set('WWW-Authenticate', 'Bearer realm="scigate"');
    const error = new GatewayError(
      'unauthorized',
      match
        ? 'The bearer token is wrong. Run `scigate token` to print the current one.'
        : 'Missing Authorization: Bearer <token> header. Run `scigate token` to print the token.',
    );
    refuse(res, error, options);
  };
}

/**
 * Rejects requests whose Host or Origin is not an allowed host name (DNS-rebinding protection):
 * 403 with a JSON error that names the setting to change (a JSON-RPC error with `jsonRpc`).
 */
export function requireAllowedHost(allowedHosts: readonly string[], options: { jsonRpc?: boolean } = {}): RequestHandler {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req, res, next) => {
    const host = hostnameOf(req.headers.host);
    const origin = req.headers.origin;
    const originHost = origin === undefined ? undefined : hostnameOf(safeOriginHost(origin));
    if (host && allowed.has(host) && (origin === undefined || (originHost && allowed.has(originHost)))) return next();
    const shown = (origin ?? req.headers.host ?? '').slice(0, 100);
    refuse(res, new GatewayError('forbidden', `Host "${shown}" is not allowed. Add it with --allowed-hosts (SCIGATE_ALLOWED_HOSTS).`), options);
  };
}

/** A guard's refusal in the admin shape, or as a JSON-RPC error (gateway code in `data`) at the /mcp edge. */
function refuse(res: Response, error: GatewayError, options: { jsonRpc?: boolean }): void {
  if (!options.jsonRpc) return sendHttpError(res, error);
  sendRpcError(res, { status: httpStatusOf(error.code), code: -32001, message: error.message, data: { code: error.code }, id: null });
}

/**
 * Parses a JSON request body of at most `maxBytes`. A request that carries a body must say
 * `content-type: application/json` (or `+json`): otherwise it fails as `unsupported_media_type`
 * (415) instead of being silently ignored. Reading errors go to `next` for the edge to map.
 */
export function jsonBody(options: { maxBytes: number }): RequestHandler {
  if (!Number.isInteger(options.maxBytes) || options.maxBytes < 1) throw new Error('jsonBody: maxBytes must be a positive integer');
  const parse = json({ limit: options.maxBytes, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return next(new GatewayError('unsupported_media_type', 'Send the request body as JSON with content-type: application/json.'));
    }
    parse(req, res, next);
  };
}

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hostHeader);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return hostHeader.replace(/:\d+$/, '').toLowerCase();
}

function safeOriginHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
