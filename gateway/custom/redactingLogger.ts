import type { Logger } from '../core/index.js';

/** Shorter values are not scrubbed: they would blank out ordinary words. */
const MIN_SECRET_CHARS = 4;
const MASK = '[redacted]';

/**
 * A logger for one custom server that replaces its env/header values wherever they show up in a
 * log line — above all in what a stdio program writes to stderr, which the gateway logs.
 */
export function redactingLogger(log: Logger, secrets: () => readonly string[]): Logger {
  const scrub = (value: unknown): unknown => scrubValue(value, secrets().filter((s) => s.length >= MIN_SECRET_CHARS));
  return {
    debug: (obj, msg) => log.debug(scrub(obj) as object, msg === undefined ? msg : (scrub(msg) as string)),
    info: (obj, msg) => log.info(scrub(obj) as object, msg === undefined ? msg : (scrub(msg) as string)),
    warn: (obj, msg) => log.warn(scrub(obj) as object, msg === undefined ? msg : (scrub(msg) as string)),
    error: (obj, msg) => log.error(scrub(obj) as object, msg === undefined ? msg : (scrub(msg) as string)),
    child: (bindings) => redactingLogger(log.child(bindings), secrets),
  };
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join(MASK), value);
  if (value instanceof Error) return { name: value.name, message: scrubValue(value.message, secrets) };
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, secrets)]));
  }
  return value;
}
