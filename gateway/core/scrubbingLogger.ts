import type { Logger } from './logger.js';
import type { SecretScrubber } from './secretScrubber.js';

/**
 * The gateway's logger with every secret the scrubber knows replaced in each line's fields and
 * message, before the line reaches pino (or any other sink). Applied once, where the logger is
 * created, so no call site has to remember it; children inherit it.
 */
export function scrubbingLogger(log: Logger, secrets: SecretScrubber): Logger {
  const level = (write: Logger['debug']): Logger['debug'] => (obj, msg) =>
    write(secrets.scrubValue(obj), msg === undefined ? msg : secrets.scrub(msg));
  return {
    debug: level(log.debug.bind(log)),
    info: level(log.info.bind(log)),
    warn: level(log.warn.bind(log)),
    error: level(log.error.bind(log)),
    child: (bindings) => scrubbingLogger(log.child(secrets.scrubValue(bindings)), secrets),
  };
}
