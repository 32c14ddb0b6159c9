import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Run by `/bin/sh -c` as the leader of a stdio server's new process group: it starts a watchdog
 * subshell that blocks reading fd 3 (a pipe whose other end only the gateway holds) and, when that
 * read ends because the gateway died — however it died — kills the whole group. Then the shell
 * replaces itself with the server (same pid, so the server stays the group leader), closing fd 3
 * so the server never sees it. Costs one idle `sh` per server; a maintained npm package for
 * PR_SET_PDEATHSIG would need a native build and would only cover the direct child, not the group.
 */
export const WATCHDOG_SCRIPT = '( read -r _ <&3; kill -s KILL 0 ) </dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

/**
 * Finds the program the way spawn's execvp would (PATH, or a path relative to `cwd`), so that a
 * missing one still fails at start with `ENOENT` rather than as a shell's exit status.
 */
export function resolveCommand(command: string, path: string | undefined, cwd: string | undefined): string | Error {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd ?? '.', command)]
    : (path ?? '').split(delimiter).filter((dir) => dir !== '').map((dir) => resolve(cwd ?? '.', join(dir, command)));
  for (const candidate of candidates) {
    if (isExecutableFile(candidate)) return command.includes('/') ? command : candidate;
  }
  return Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT', path: command });
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
