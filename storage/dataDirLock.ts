import { open, readFile, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../gateway/core/index.js';
import { FILE_MODE } from './atomicWrite.js';

/** The file in a data directory that names the process holding its embedded store. */
export const LOCK_FILE = 'scigate.lock';

/** Who holds the lock: enough to tell a live holder from a dead one whose pid was reused. */
interface Holder {
  pid: number;
  /** The holder's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), null where unknown. */
  started: string | null;
  /** Its host name: another container or machine on a shared volume, whose pids mean nothing here. */
  host: string | null;
  command: string;
  since: string;
}

export interface DataDirLock {
  /** Stops the heartbeat and removes the file if it still names this process. */
  release(): Promise<void>;
}

export interface DataDirLockOptions {
  /** How often the holder touches the file (default 10 s); a holder on another host is gone after three missed. */
  heartbeatMs?: number;
}

const DEFAULT_HEARTBEAT_MS = 10_000;
/** How long a lock file may stay empty (its holder is writing it) before it counts as abandoned. */
const WRITING_GRACE_MS = 2000;

/**
 * One process per embedded store. Two gateways on one data directory would each hold the database
 * in memory and checkpoint over the other's writes, interleave their audit lines, and the second
 * would mark the first one's running calls `interrupted` as it starts. The lock is a file naming its
 * holder; a holder that is gone (crashed, killed, the machine rebooted) leaves a stale file that the
 * next start takes over. On this host that is decided by the holder's pid and start time (this
 * process's own pid counts as gone: a container restarts its gateway as the same pid 1); a holder on
 * another host (a second container on a shared volume) is alive while it touches the file. (Two
 * processes taking over one stale file in the same instant can both win; the lock guards against a
 * second gateway started by mistake, not against that race.)
 */
export async function lockDataDir(dataDir: string, options: DataDirLockOptions = {}): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  // What the holder runs, for the message a second process gets: "scigate.js serve".
  const command = process.argv.slice(1, 3).map((arg) => basename(arg)).join(' ');
  const me: Holder = { pid: process.pid, started: (await procStat(process.pid))?.started ?? null, host: hostname(), command, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx', FILE_MODE);
      await handle.writeFile(JSON.stringify(me)).finally(() => handle.close());
      return held(path, me, heartbeatMs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 50) throw error;
    }
    const holder = await readHolder(path);
    if (holder === 'gone') continue;
    const ageMs = Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? 0);
    if (holder === 'unreadable') {
      // Another process may be between creating the file and writing it: give it a moment.
      if (ageMs < WRITING_GRACE_MS) {
        await sleep(100);
        continue;
      }
    } else if (await isAlive(holder, ageMs, heartbeatMs)) {
      throw inUse(dataDir, holder, path, ageMs);
    }
    await rm(path, { force: true });
  }
}

/** The lock as held: touched every `heartbeatMs` (for processes on other hosts) until released. */
function held(path: string, me: Holder, heartbeatMs: number): DataDirLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(path, now, now).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  return {
    release: async () => {
      clearInterval(heartbeat);
      const holder = await readHolder(path);
      if (typeof holder === 'object' && holder.pid === me.pid && holder.since === me.since) await rm(path, { force: true });
    },
  };
}

async function readHolder(path: string): Promise<Holder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(holder.pid) && holder.pid! > 0) {
      return {
        pid: holder.pid!, started: holder.started ?? null, host: holder.host ?? null,
        command: String(holder.command ?? 'scigate'), since: String(holder.since ?? ''),
      };
    }
  } catch {
    // Falls through: a file cut short or not ours is unreadable.
  }
  return 'unreadable';
}

/**
 * On another host: alive while it touches the file (three heartbeats' grace). Here: the pid runs,
 * is not a zombie, is not this process, and (where /proc tells) started when the holder did.
 */
async function isAlive(holder: Holder, ageMs: number, heartbeatMs: number): Promise<boolean> {
  if (onOtherHost(holder)) return ageMs < 3 * heartbeatMs;
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

/** A holder that named another host: its pid means nothing here (another container, another machine). */
function onOtherHost(holder: Holder): boolean {
  return holder.host !== null && holder.host !== hostname();
}

function inUse(dataDir: string, holder: Holder, path: string, ageMs: number): GatewayError {
  const who = onOtherHost(holder)
    ? `a scigate process on host ${holder.host} (pid ${holder.pid}, ${holder.command}; it touched the lock ${Math.round(ageMs / 1000)} s ago)`
    : `another scigate process (pid ${holder.pid}, ${holder.command}, since ${holder.since})`;
  return new GatewayError(
    'conflict',
    `The data directory ${dataDir} is in use by ${who}. Stop that process, or give this one its own --data-dir (SCIGATE_DATA_DIR). ` +
      `If no scigate runs there any more, delete ${path}.`,
  );
}
