import { open, rm, stat, utimes } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from '../gateway/core/index.js';
import { FILE_MODE } from './atomicWrite.js';
import { parseHolder, pidAlive, placeOf, sameHolder, thisProcess, type Holder, type HolderPlace } from './lockHolder.js';

/** The file in a data directory that names the process holding its embedded store. */
export const LOCK_FILE = 'scigate.lock';

export interface DataDirLock {
  /** Stops the heartbeat and removes the file if it still names this process. */
  release(): Promise<void>;
}

export interface DataDirLockOptions {
  /**
   * How often the holder touches the file (default 2 s). A holder whose pid cannot be checked from
   * here is gone after 5 missed touches on this host name, 15 on another host.
   */
  heartbeatMs?: number;
  /** Told, in words, when the lock waits to see whether a holder elsewhere still touches the file. */
  onWait?: (message: string) => void;
}

const DEFAULT_HEARTBEAT_MS = 2000;
/** Missed touches after which a holder judged by its heartbeat is gone: another host's clock and file cache get more. */
const MISSED_TOUCHES = { 'same-host': 5, 'other-host': 15 } as const;
/** How long a lock file may stay empty (its holder is writing it) before it counts as abandoned. */
const WRITING_GRACE_MS = 2000;
/** How long a takeover may take before its guard file counts as left by a process that died during it. */
const TAKEOVER_GRACE_MS = 10_000;

/**
 * One process per embedded store. Two gateways on one data directory would each hold the database
 * in memory and checkpoint over the other's writes, interleave their audit lines, and the second
 * would mark the first one's running calls `interrupted` as it starts. The lock is a file naming its
 * holder; a holder that is gone (crashed, killed, the machine rebooted) leaves a stale file that the
 * next start takes over.
 * - A holder that shares this process's host, boot and pid namespace is judged by its pid and start
 *   time (this process's own pid counts as gone).
 * - Any other holder is alive while it touches the file. That includes this very container after a
 *   restart (a new pid namespace, where the gateway is pid 1 again) and a second container on the
 *   same volume that shares the host name: the lock watches the file until it is touched (alive:
 *   refused) or the holder has missed its touches (gone: taken over).
 * Processes that find the same stale file at once take it over one at a time (`takeOver`).
 */
export async function lockDataDir(dataDir: string, options: DataDirLockOptions = {}): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  // What the holder runs, for the message a second process gets: "scigate.js serve".
  const me = await thisProcess(process.argv.slice(1, 3).map((arg) => basename(arg)).join(' '));
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx', FILE_MODE);
      await handle.writeFile(JSON.stringify(me)).finally(() => handle.close());
      return held(path, me, heartbeatMs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (attempt >= 50) throw new GatewayError('conflict', `The lock file ${path} kept changing while this process tried to take it: other processes are starting on ${dataDir}. Start one scigate per data directory.`);
    }
    const found = await readLock(path);
    if (found === 'gone') continue;
    const { holder } = found;
    if (holder === 'unreadable') {
      // Another process may be between creating the file and writing it: give it a moment.
      if (found.ageMs < WRITING_GRACE_MS) {
        await sleep(100);
        continue;
      }
    } else {
      const place = await placeOf(holder);
      const verdict = place === 'here' ? (await pidAlive(holder) ? 'alive' : 'gone') : await watchHeartbeat(path, found, place, heartbeatMs, options.onWait);
      if (verdict === 'alive') throw inUse(dataDir, holder, path, place);
      if (verdict === 'replaced') continue;
    }
    await takeOver(path, found);
  }
}

/** A lock file as read: its holder, how long ago it was touched, and what tells this file from a later one. */
interface FoundLock {
  holder: Holder | 'unreadable';
  ageMs: number;
  text: string;
  inode: number;
  touchedMs: number;
}

async function readLock(path: string): Promise<FoundLock | 'gone'> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const [info, text] = [await handle.stat(), await handle.readFile('utf8')];
    return { holder: parseHolder(text), ageMs: Date.now() - info.mtimeMs, text, inode: info.ino, touchedMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

const sameFile = (a: FoundLock, b: FoundLock) => a.inode === b.inode && a.text === b.text;

/**
 * A holder judged by its heartbeat: `alive` once it touches the file after `found`, `gone` once the
 * file has gone `graceMs` untouched, `replaced` if another process removed or replaced the file
 * meanwhile (judge again). Waits at most until the grace runs out.
 */
async function watchHeartbeat(
  path: string, found: FoundLock, place: Exclude<HolderPlace, 'here'>, heartbeatMs: number, onWait?: (message: string) => void,
): Promise<'alive' | 'gone' | 'replaced'> {
  const graceMs = MISSED_TOUCHES[place] * heartbeatMs;
  if (found.ageMs >= graceMs) return 'gone';
  const holder = found.holder as Holder;
  const where = place === 'same-host' ? `in another pid namespace on this host, ${holder.host} (another container, or this one before it restarted)` : `on host ${holder.host}`;
  onWait?.(
    `${path} names pid ${holder.pid} ${where}; waiting up to ${Math.ceil((graceMs - found.ageMs) / 1000)} s to see whether it still ` +
      `touches the file (it does every ${heartbeatMs / 1000} s while it runs).`,
  );
  for (;;) {
    await sleep(Math.min(500, Math.max(10, heartbeatMs / 4)));
    const now = await readLock(path);
    if (now === 'gone' || !sameFile(now, found)) return 'replaced';
    if (now.touchedMs !== found.touchedMs) return 'alive';
    if (now.ageMs >= graceMs) return 'gone';
  }
}

/**
 * Removes a lock file judged stale, if it still is that file. Without care two processes that judged
 * it stale at once could both win: the second one's removal would delete the lock the first had just
 * written. So removals take turns behind a guard file, and under the guard the lock is removed only if
 * it is the file judged (same inode, same text, not touched since). A guard left by a process that
 * died mid-takeover is cleared after TAKEOVER_GRACE_MS.
 */
async function takeOver(path: string, judged: FoundLock): Promise<void> {
  const guard = `${path}.takeover`;
  for (;;) {
    try {
      await (await open(guard, 'wx', FILE_MODE)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Another process is taking over (a matter of milliseconds), or died doing it.
    const guardAgeMs = Date.now() - ((await stat(guard).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (guardAgeMs > TAKEOVER_GRACE_MS) await rm(guard, { force: true });
    else await sleep(50);
  }
  try {
    const now = await readLock(path);
    if (now !== 'gone' && sameFile(now, judged) && now.touchedMs === judged.touchedMs) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

/** The lock as held: touched every `heartbeatMs` (for holders that cannot check its pid) until released. */
function held(path: string, me: Holder, heartbeatMs: number): DataDirLock {
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(path, now, now).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  return {
    release: async () => {
      clearInterval(heartbeat);
      const found = await readLock(path);
      if (found !== 'gone' && found.holder !== 'unreadable' && sameHolder(found.holder, me)) await rm(path, { force: true });
    },
  };
}

function inUse(dataDir: string, holder: Holder, path: string, place: HolderPlace): GatewayError {
  const who = {
    here: `another scigate process (pid ${holder.pid}, ${holder.command}, since ${holder.since})`,
    'same-host': `a scigate process in another container on host ${holder.host} (pid ${holder.pid} there, ${holder.command}, since ${holder.since}; it still touches the lock)`,
    'other-host': `a scigate process on host ${holder.host} (pid ${holder.pid}, ${holder.command}, since ${holder.since}; it still touches the lock)`,
  }[place];
  return new GatewayError(
    'conflict',
    `The data directory ${dataDir} is in use by ${who}. Stop that process, or give this one its own --data-dir (SCIGATE_DATA_DIR). ` +
      `If no scigate runs there any more, delete ${path}.`,
  );
}
