import type { Logger } from './logger.js';
import type { SecretScrubber } from './secretScrubber.js';

/**
 * The gateway's logger with every secret the scrubber knows replaced in each line's fields and
 * message, before the line reaches pino (or any other sink). Applied once, where the logger is
 * created, so no call site has to remember it; children inherit it.
 */
export function scrubbingLogger(log: Logger, secrets: SecretScrubber): Logger {
  type Level = 'debug' | 'info' | 'warn' | 'error';
  // A line of a level the sink drops is not scrubbed (a deep copy of its fields) for nothing.
  const level = (name: Level): Logger['debug'] => (obj, msg) => {
    if (log.isLevelEnabled?.(name) === false) return;
    log[name](secrets.scrubValue(obj), msg === undefined ? msg : secrets.scrub(msg));
  };
  return {
    debug: level('debug'),
    info: level('info'),
    warn: level('warn'),
    error: level('error'),
    child: (bindings) => scrubbingLogger(log.child(secrets.scrubValue(bindings)), secrets),
    ...(log.isLevelEnabled ? { isLevelEnabled: (name: Level) => log.isLevelEnabled!(name) } : {}),
  };
}
