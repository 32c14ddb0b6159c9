import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Hosts a loopback-bound gateway answers to; anything else is a DNS-rebinding attempt. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];

/** Compares two secrets in constant time (hashing first, so lengths leak nothing either). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Requires `Authorization: Bearer <token>`; answers 401 with a JSON error otherwise. */
export function requireBearer(token: string): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match && secretsEqual(match[1]!.trim(), token)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer realm="scigate"')
      .json({
        error: {
          code: 'unauthorized',
          message: match
            ? 'The bearer token is wrong. Run `scigate token` to print the current one.'
            : 'Missing Authorization: Bearer <token> header. Run `scigate token` to print the token.',
        },
      });
  };
}

/**
 * Rejects requests whose Host or Origin is not an allowed host name (DNS-rebinding protection):
 * 403 with a JSON error that names the setting to change.
 */
export function requireAllowedHost(allowedHosts: readonly string[]): RequestHandler {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req, res, next) => {
    const host = hostnameOf(req.headers.host);
    const origin = req.headers.origin;
    const originHost = origin === undefined ? undefined : hostnameOf(safeOriginHost(origin));
    if (host && allowed.has(host) && (origin === undefined || (originHost && allowed.has(originHost)))) return next();
    res.status(403).json({
      error: {
        code: 'forbidden',
        message: `Host "${(origin ?? req.headers.host ?? '').slice(0, 100)}" is not allowed. Add it with --allowed-hosts (SCIGATE_ALLOWED_HOSTS).`,
      },
    });
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
