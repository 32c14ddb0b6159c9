import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Logger, ProcessGroupEntry, ProcessGroupRecord } from '../core/index.js';

/**
 * Every stdio child this process runs, whichever gateway started it, so that the process's exit
 * can kill all their process groups (killChildrenOnExit).
 */
export const liveChildren = new Set<ChildProcess>();

/**
 * Notes a started child: tracked in memory and written to its gateway's record (the data
 * directory's), if it has one. The record is the caller's, never module state: two gateways in
 * one process (tests) each record their own children in their own directory.
 */
export function noteChildStarted(child: ChildProcess, groups: ProcessGroupRecord | undefined, log: Logger): void {
  liveChildren.add(child);
  const startTicks = child.pid === undefined ? undefined : processStartTicks(child.pid);
  const ownerStartTicks = processStartTicks(process.pid);
  if (!groups || !startTicks || !ownerStartTicks) return;
  const entry: ProcessGroupEntry = { pgid: child.pid!, startTicks, ownerPid: process.pid, ownerStartTicks };
  groups.add(entry).catch((error: unknown) => log.warn({ err: error, pgid: child.pid }, 'could not record a process group'));
}

/** Notes an exited child (after its group was killed). */
export function noteChildExited(child: ChildProcess, groups: ProcessGroupRecord | undefined, log: Logger): void {
  liveChildren.delete(child);
  if (!groups || child.pid === undefined) return;
  groups.remove(child.pid).catch((error: unknown) => log.warn({ err: error, pgid: child.pid }, 'could not forget a process group'));
}

/** Signals the child's whole process group; falls back to the child alone if the group is gone. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

/**
 * Kills the process groups a dead gateway left behind, and forgets them; groups of a gateway that
 * still runs are left alone. Call before any new stdio server starts. Resolves with how many
 * groups were signalled.
 */
export async function reapLeftoverGroups(groups: ProcessGroupRecord, log: Logger): Promise<number> {
  if (processStartTicks(process.pid) === undefined) {
    log.warn({}, 'no /proc here: process groups left by an earlier gateway are not checked');
    return 0;
  }
  let killed = 0;
  for (const entry of await groups.list()) {
    if (processStartTicks(entry.ownerPid) === entry.ownerStartTicks) continue;
    // A leader that is gone cannot have had its pid reused while its group lives on, so the
    // group is still ours; a leader alive with another start time is someone else's process.
    const leaderTicks = processStartTicks(entry.pgid);
    if (leaderTicks === undefined || leaderTicks === entry.startTicks) {
      try {
        process.kill(-entry.pgid, 'SIGKILL');
        killed += 1;
        log.warn({ pgid: entry.pgid }, 'killed a stdio server group left behind by a gateway that died');
      } catch {
        // ESRCH: the group already ended.
      }
    }
    await groups.remove(entry.pgid);
  }
  return killed;
}

/** A process's start time in clock ticks since boot (Linux /proc), or undefined if it does not run. */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 3, starttime field 22 of the stat line.
    return fields[0] === 'Z' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}
