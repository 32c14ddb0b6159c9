import { execFileSync } from 'node:child_process';
import type { Logger } from '../../gateway/core/index.js';

/** A logger that keeps warnings and errors (message + fields) for assertions. */
export function recordingLogger() {
  const warnings: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  const errors: string[] = [];
  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, msg) => void warnings.push({ msg: msg ?? '', fields: fields as Record<string, unknown> }),
    error: (_fields, msg) => void errors.push(msg ?? ''),
    child: () => log,
  };
  return { log, warnings, errors };
}

/**
 * Caps the size any file written by process `pid` may reach (RLIMIT_FSIZE, soft limit only, so it
 * can be lifted again without privileges): a write past it fails with EFBIG, as on a full disk.
 * Node ignores SIGXFSZ, so the process survives and sees the error. `undefined` lifts the cap.
 */
export function capFileSize(pid: number, maxBytes: number | undefined): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${maxBytes ?? 'unlimited'}:`]);
}
