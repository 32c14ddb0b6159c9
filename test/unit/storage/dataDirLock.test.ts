import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, lockDataDir } from '../../../storage/dataDirLock.js';

let dir: string;
let lockPath: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scigate-lock-'));
  lockPath = join(dir, LOCK_FILE);
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** A real process that stays alive, and its start time as /proc gives it. */
async function liveProcess(): Promise<{ pid: number; started: string }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
  return { pid: child.pid!, started: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]! };
}

/** Locks the directory, expecting the file to name this process then, and lets go. */
async function expectTakenOver(): Promise<void> {
  const lock = await lockDataDir(dir);
  expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
  await lock.release();
}

/** The lock file as a holder that stopped touching it a minute ago left it. */
const untouchedForAMinute = () => {
  const longAgo = new Date(Date.now() - 60_000);
  return utimes(lockPath, longAgo, longAgo);
};

const holderFile = (holder: object) => writeFile(lockPath, JSON.stringify({ command: 'scigate.js serve', since: '2026-12-04T10:00:00.000Z', ...holder }));

describe('the data directory lock', () => {
  it('is refused while another live process holds it, naming that process and what to do', async () => {
    const other = await liveProcess();
    await holderFile(other);
    await expect(lockDataDir(dir)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`in use by another scigate process (pid ${other.pid}, scigate.js serve, since 2026-12-04T10:00:00.000Z)`),
    });
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: other.pid });
  });

  it('takes over a lock whose holder is gone, or whose pid now belongs to a process started later', async () => {
    const exited = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => exited.once('exit', resolve));
    await holderFile({ pid: exited.pid, started: '1' });
    await expectTakenOver();

    const reused = await liveProcess();
    await holderFile({ pid: reused.pid, started: String(Number(reused.started) - 1) });
    await expectTakenOver();
  });

  it("takes over its own pid (a container restarts the gateway as the same pid 1) and a file left empty long ago", async () => {
    await holderFile({ pid: process.pid, started: 'earlier life' });
    await expectTakenOver();
    await writeFile(lockPath, '');
    await untouchedForAMinute();
    await expectTakenOver();
  });

  /** Touches the lock file every `everyMs`, as a live holder elsewhere does, until the returned function is called. */
  function keepTouching(everyMs: number): () => void {
    const timer = setInterval(() => {
      const now = new Date();
      void utimes(lockPath, now, now).catch(() => {});
    }, everyMs);
    return () => clearInterval(timer);
  }

  it('a holder on another host (a second container on a shared volume) is alive while it touches the file', async () => {
    await holderFile({ pid: 1, started: '5', host: 'container-b' });
    const stop = keepTouching(20);
    const waits: string[] = [];
    await expect(lockDataDir(dir, { heartbeatMs: 20, onWait: (m) => waits.push(m) })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('in use by a scigate process on host container-b (pid 1, scigate.js serve, since 2026-12-04T10:00:00.000Z; it still touches the lock)'),
    });
    expect(waits).toEqual([expect.stringMatching(/names pid 1 on host container-b; waiting up to \d+ s to see whether it still touches the file/)]);
    stop();
    // Stopped touching: gone once it has missed 15 touches (0.3 s here), with no need to wait the minute.
    const lock = await lockDataDir(dir, { heartbeatMs: 20 });
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    await holderFile({ pid: 1, started: '5', host: 'container-b' });
    await untouchedForAMinute();
    await expectTakenOver();
  });

  it('a holder on this host name in another pid namespace (this container before a restart, or a second one) is judged by its touches, not its pid', async () => {
    const probe = await lockDataDir(dir);
    const me = JSON.parse(await readFile(lockPath, 'utf8'));
    await probe.release();
    expect(me.pidSpace).toEqual(expect.stringMatching(/^\S+ pid:\[\d+\]$/));
    // Pid 1 in another container: here it names another process (or none), which must not decide.
    const otherNamespace = { pid: 1, started: '5', host: me.host, pidSpace: `${me.pidSpace.split(' ')[0]} pid:[1]` };
    await holderFile(otherNamespace);
    const stop = keepTouching(20);
    await expect(lockDataDir(dir, { heartbeatMs: 20 })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`in use by a scigate process in another container on host ${me.host} (pid 1 there,`),
    });
    stop();
    // This container restarted after a crash: its old lock stops being touched and is taken over after 5 missed touches.
    await holderFile(otherNamespace);
    const waits: string[] = [];
    const lock = await lockDataDir(dir, { heartbeatMs: 20, onWait: (m) => waits.push(m) });
    expect(waits).toEqual([expect.stringContaining(`names pid 1 in another pid namespace on this host, ${me.host} (another container, or this one before it restarted); waiting up to 1 s`)]);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('a takeover left half-done by a process that died waits out its guard, then goes ahead', { timeout: 30_000 }, async () => {
    const exited = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => exited.once('exit', resolve));
    await holderFile({ pid: exited.pid, started: '1' });
    const guard = `${lockPath}.takeover`;
    await writeFile(guard, '');
    const sixSecondsAgo = new Date(Date.now() - 6000);
    await utimes(guard, sixSecondsAgo, sixSecondsAgo);
    await expectTakenOver();
    await expect(stat(guard)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the holder touches its lock file while it holds it, and stops once released', async () => {
    const lock = await lockDataDir(dir, { heartbeatMs: 20 });
    await untouchedForAMinute();
    await vi.waitFor(async () => expect((await stat(lockPath)).mtimeMs).toBeGreaterThan(Date.now() - 10_000), { timeout: 30_000, interval: 20 });
    await lock.release();
  });

  it('release removes the file only while it still names this holder', async () => {
    const lock = await lockDataDir(dir);
    const other = await liveProcess();
    await holderFile(other);
    await lock.release();
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: other.pid });
    await rm(lockPath);
    const again = await lockDataDir(dir);
    await again.release();
    await expect(readFile(lockPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the data directory lock under contention', () => {
  const LOCK_MODULE = new URL('../../../dist/storage/dataDirLock.js', import.meta.url).href;
  /**
   * One contender: a process that waits for the agreed instant, tries the lock, says `won` or
   * `lost <code>`, and holds a won lock until its stdin closes (once every contender has decided).
   */
  const CONTENDER = `
    const { lockDataDir } = await import(process.argv[1]);
    const [dir, goAt] = [process.argv[2], Number(process.argv[3])];
    const closed = new Promise((resolve) => process.stdin.on('end', resolve).resume());
    // Asleep until just before the instant, then spinning to it: the contenders start within a millisecond.
    await new Promise((resolve) => setTimeout(resolve, goAt - Date.now() - 30));
    while (Date.now() < goAt);
    try {
      const lock = await lockDataDir(dir);
      console.log('won');
      await closed;
      await lock.release();
    } catch (error) {
      console.log('lost ' + error.code);
    }`;

  async function contend(count: number): Promise<string[]> {
    const goAt = Date.now() + 1500;
    const running = Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CONTENDER, LOCK_MODULE, dir, String(goAt)], { stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(child);
      const decided = new Promise<string>((resolve) => {
        let out = '';
        child.stdout!.on('data', (chunk) => (out += chunk) && out.includes('\n') && resolve(out.trim()));
        child.once('exit', () => resolve(out.trim()));
      });
      return { child, decided };
    });
    const outcomes = await Promise.all(running.map((r) => r.decided));
    await Promise.all(running.map(({ child }) => new Promise((resolve) => (child.once('exit', resolve), child.stdin!.end()))));
    return outcomes;
  }

  it('exactly one of several processes taking over the same stale lock at once wins', { timeout: 120_000 }, async () => {
    const exited = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => exited.once('exit', resolve));
    for (let round = 0; round < 5; round++) {
      await holderFile({ pid: exited.pid, started: '1' });
      const outcomes = await contend(6);
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'won')).toEqual(Array(5).fill('lost conflict'));
    }
  });
});
