/** The logging port: pino's shape, so production passes a pino logger and tests a silent one. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
  /** pino's: false when lines of this level are dropped, so a wrapper can skip building them. */
  isLevelEnabled?(level: 'debug' | 'info' | 'warn' | 'error'): boolean;
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/**
 * A logger usable before the real one is built (`scigate stdio` answers before pino is loaded):
 * lines are kept in order and replayed into `ready` once it resolves. If it never comes, they are
 * written to `fallback` (stderr) as JSON lines, since stdout is the protocol channel.
 */
export function deferredLogger(ready: Promise<Logger>, fallback: NodeJS.WritableStream, bindings: Record<string, unknown> = {}): Logger {
  type Level = 'debug' | 'info' | 'warn' | 'error';
  type Line = { level: Level; obj: object; msg: string | undefined };
  const pending: Line[] = [];
  let write: (line: Line) => void = (line) => void pending.push(line);
  const toFallback = ({ level, obj, msg }: Line) => void fallback.write(`${JSON.stringify({ level, ...bindings, ...obj, msg })}\n`);
  ready.then(
    (log) => {
      const target = Object.keys(bindings).length > 0 ? log.child(bindings) : log;
      write = ({ level, obj, msg }) => {
        target[level](obj, msg);
      };
      pending.splice(0).forEach(write);
    },
    () => {
      write = toFallback;
      pending.splice(0).forEach(write);
    },
  );
  const at = (level: Level) => (obj: object, msg?: string) => write({ level, obj, msg });
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => deferredLogger(ready, fallback, { ...bindings, ...more }),
  };
}
