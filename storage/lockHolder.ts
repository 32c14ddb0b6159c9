import { readFile, readlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Who holds a data directory lock: enough to tell a live holder from a dead one whose pid was reused. */
export interface Holder {
  pid: number;
  /** The holder's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), null where unknown. */
  started: string | null;
  /** Its host name: another container or machine on a shared volume, whose pids mean nothing here. */
  host: string | null;
  /**
   * Its boot and pid namespace (Linux: `/proc/sys/kernel/random/boot_id`, `/proc/self/ns/pid`), null
   * where unknown. Two containers can share a host name (host networking, a fixed `hostname:`) and
   * still not see each other's pids; so can this machine before and after a reboot.
   */
  pidSpace: string | null;
  command: string;
  since: string;
}

/** This process as a lock holder. */
export async function thisProcess(command: string): Promise<Holder> {
  return { pid: process.pid, started: (await procStat(process.pid))?.started ?? null, host: hostname(), pidSpace: await pidSpaceOfThisProcess(), command, since: new Date().toISOString() };
}

let ownPidSpace: Promise<string | null> | undefined;
function pidSpaceOfThisProcess(): Promise<string | null> {
  ownPidSpace ??= Promise.all([readFile('/proc/sys/kernel/random/boot_id', 'utf8'), readlink('/proc/self/ns/pid')]).then(
    ([boot, namespace]) => `${boot.trim()} ${namespace}`,
    () => null,
  );
  return ownPidSpace;
}

/** The holder a lock file's text names; `unreadable` when it is cut short or not a lock file. */
export function parseHolder(text: string): Holder | 'unreadable' {
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(holder.pid) && holder.pid! > 0) {
      return {
        pid: holder.pid!, started: holder.started ?? null, host: holder.host ?? null, pidSpace: holder.pidSpace ?? null,
        command: String(holder.command ?? 'scigate'), since: String(holder.since ?? ''),
      };
    }
  } catch {
    // Falls through: a file cut short or not ours is unreadable.
  }
  return 'unreadable';
}

/** The same holder: one process's lock, not another written since. */
export const sameHolder = (a: Holder, b: Holder) => a.pid === b.pid && a.since === b.since && a.started === b.started && a.host === b.host;

/** Where a holder runs, as `placeOf` tells. */
export type HolderPlace = 'here' | 'same-host' | 'other-host';

/**
 * Where a holder runs, as far as its pid can tell: `here` shares this process's host, boot and pid
 * namespace, so its pid decides; `same-host` has this host name but not the rest (this container
 * before it restarted, or another container with host networking or the same `hostname:`); `other-host`
 * is another machine or container on a shared volume. A holder in either of the last two is judged by
 * its heartbeat alone.
 */
export async function placeOf(holder: Holder): Promise<HolderPlace> {
  if (holder.host !== null && holder.host !== hostname()) return 'other-host';
  const mine = await pidSpaceOfThisProcess();
  return holder.pidSpace !== null && mine !== null && holder.pidSpace !== mine ? 'same-host' : 'here';
}

/** A holder `here` runs: its pid runs, is not a zombie, is not this process, and (where /proc tells) started when the holder did. */
export async function pidAlive(holder: Holder): Promise<boolean> {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = await procStat(holder.pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return holder.started === null || holder.started === stat.started;
}

/** State and start time from `/proc/<pid>/stat` (fields 3 and 22); undefined without /proc. */
async function procStat(pid: number): Promise<{ state: string; started: string } | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', started: fields[19] ?? '' };
}
