import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { json, type RequestHandler, type Response } from 'express';
import { GatewayError, sha256Bytes } from '../core/index.js';
import { httpStatusOf, sendHttpError } from './httpErrors.js';
import { sendRpcError } from './rpcErrors.js';

/** Hosts a loopback-bound gateway answers to; anything else is a DNS-rebinding attempt. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/** The admin token in force now: a running gateway follows its file (`scigate token --rotate`). */
export type CurrentToken = () => string;

/**
 * Requires `Authorization: Bearer <token>`; answers 401 with a JSON error otherwise — the admin
 * shape, or with `jsonRpc` (the /mcp edge) a JSON-RPC error, so /mcp never answers another shape.
 */
export function requireBearer(token: CurrentToken, options: { jsonRpc?: boolean } = {}): RequestHandler {
  const refusal = bearerCheck(token);
  return (req, res, next) => {
    const error = refusal(req.headers.authorization);
    if (!error) return next();
    res.set('WWW-Authenticate', BEARER_CHALLENGE);
    refuse(res, error, options);
  };
}

/** The `WWW-Authenticate` header of a 401. */
export const BEARER_CHALLENGE = 'Bearer realm="scigate"';

/** Decides an `Authorization` header against the token: undefined when it may pass, else why not (401). */
export function bearerCheck(token: CurrentToken): (authorization: string | undefined) => GatewayError | undefined {
  // Both sides hashed before the constant-time comparison, so lengths leak nothing either; the
  // token's digest once per token, not per request (every tool call passes here).
  let expected: { token: string; digest: Uint8Array } = { token: '', digest: new Uint8Array(0) };
  return (authorization) => {
    const now = token();
    if (expected.token !== now) expected = { token: now, digest: sha256Bytes(now) };
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (match && timingSafeEqual(sha256Bytes(match[1]!.trim()), expected.digest)) return undefined;
    return new GatewayError(
      'unauthorized',
      match
        ? 'The bearer token is wrong. Run `scigate token` to print the current one.'
        : 'Missing Authorization: Bearer <token> header. Run `scigate token` to print the token.',
    );
  };
}

/**
 * Rejects requests whose Host or Origin is not an allowed host name (DNS-rebinding protection):
 * 403 with a JSON error that names the setting to change (a JSON-RPC error with `jsonRpc`).
 */
export function requireAllowedHost(allowedHosts: readonly string[], options: { jsonRpc?: boolean } = {}): RequestHandler {
  const refusal = hostCheck(allowedHosts);
  return (req, res, next) => {
    const error = refusal(req.headers);
    if (!error) return next();
    refuse(res, error, options);
  };
}

/** Decides a request's Host and Origin headers: undefined when both name allowed hosts, else why not (403). */
export function hostCheck(allowedHosts: readonly string[]): (headers: IncomingHttpHeaders) => GatewayError | undefined {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (headers) => {
    const host = hostnameOf(headers.host);
    const origin = headers.origin;
    const originHost = origin === undefined ? undefined : hostnameOf(safeOriginHost(origin));
    if (host && allowed.has(host) && (origin === undefined || (originHost && allowed.has(originHost)))) return undefined;
    const shown = (origin ?? headers.host ?? '').slice(0, 100);
    return new GatewayError('forbidden', `Host "${shown}" is not allowed. Add it with --allowed-hosts (SCIGATE_ALLOWED_HOSTS).`);
  };
}

/** A guard's refusal in the admin shape, or as a JSON-RPC error at the /mcp edge. */
function refuse(res: Response, error: GatewayError, options: { jsonRpc?: boolean }): void {
  if (!options.jsonRpc) return sendHttpError(res, error);
  refuseRpc(res, error);
}

/** A guard's refusal at the /mcp edge: a JSON-RPC error with the gateway's code in `data`. */
export function refuseRpc(res: ServerResponse, error: GatewayError): void {
  sendRpcError(res, { status: httpStatusOf(error.code), code: -32001, message: error.message, data: { code: error.code }, id: null });
}

/**
 * Parses a JSON request body of at most `maxBytes`. A request that carries a body must say
 * `content-type: application/json` (or `+json`): otherwise it fails as `unsupported_media_type`
 * (415) instead of being silently ignored. Reading errors go to `next` for the edge to map.
 * Plain Node request and response suffice (the /mcp edge runs it without express).
 */
export function jsonBody(options: { maxBytes: number }): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  if (!Number.isInteger(options.maxBytes) || options.maxBytes < 1) throw new Error('jsonBody: maxBytes must be a positive integer');
  // The bytes are kept beside the parsed body: what JSON.parse drops (a repeated key) can still be found in them.
  const parse = json({ limit: options.maxBytes, type: isJsonMediaType, verify: (req, _res, bytes) => void ((req as WithRawBody).rawBody = bytes) });
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return next();
    if (!isJsonMediaType(req)) {
      return next(new GatewayError('unsupported_media_type', 'Send the request body as JSON with content-type: application/json.'));
    }
    parse(req, res, next);
  };
}

/** A request whose JSON body jsonBody read: its bytes as received (UTF-8, as RFC 8259 has JSON sent). */
export interface WithRawBody {
  rawBody?: Buffer;
}

/** `application/json` or `application/<anything>+json`, parameters (charset) aside. */
function isJsonMediaType(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[!#$%&'*+.^`|~\w-]+\+json$/.test(type));
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
