import { GatewayError } from '../../gateway/core/index.js';

interface PgLikeError {
  code?: string;
  message?: string;
}

/** Socket-level failures: the server is down, unreachable or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** True when the error means "PostgreSQL cannot be used right now", as opposed to a refused statement. */
export function isConnectionFailure(error: unknown): boolean {
  const { code, message = '' } = (error ?? {}) as PgLikeError;
  if (code && (NETWORK_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message);
}

/**
 * The first connection failed: a message that says what to change (server, URL, credentials), with
 * the URL shown redacted. pg's own messages never contain the password.
 */
export function connectError(error: unknown, shownUrl: string, urlFlag = '--store (SCIGATE_STORE)'): GatewayError {
  const { code, message = String(error) } = (error ?? {}) as PgLikeError;
  const where = `PostgreSQL at ${shownUrl}`;
  let text: string;
  if (code === '28P01' || code === '28000') {
    text = `${where} refused the login (${message}). Fix the user name and password in ${urlFlag}.`;
  } else if (code === '3D000') {
    text = `${where}: ${message}. Create it (createdb) or name an existing database in ${urlFlag}.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    text = `Cannot resolve the host of ${where} (${code}). Fix the host in ${urlFlag}.`;
  } else if (isConnectionFailure(error)) {
    text = `Cannot reach ${where} (${code ?? message}). Start PostgreSQL or fix the host and port in ${urlFlag}.`;
  } else {
    text = `Cannot open ${where}: ${message}.`;
  }
  return new GatewayError('storage_unavailable', text, { retryable: isConnectionFailure(error), cause: error });
}

/** A statement failed because PostgreSQL went away: retryable `storage_unavailable`, nothing kept. */
export function unavailableError(error: unknown, shownUrl: string): GatewayError {
  const { code, message = String(error) } = (error ?? {}) as PgLikeError;
  return new GatewayError(
    'storage_unavailable',
    `The gateway cannot reach its PostgreSQL store at ${shownUrl} (${code ?? message}); nothing was kept. Retry later.`,
    { retryable: true, cause: error },
  );
}
