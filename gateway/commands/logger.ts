import { pino } from 'pino';
import type { Logger } from '../core/index.js';

/** The process's pino logger, on stderr (stdout is the stdio protocol channel). */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { app: 'scigate' },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'token', '*.token', 'env', '*.env'], censor: '[redacted]' },
    },
    pino.destination(2),
  ) as unknown as Logger;
}
