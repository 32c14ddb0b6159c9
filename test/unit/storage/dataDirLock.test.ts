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

  it('a holder on another host (a second container on a shared volume) counts while it touches the file', async () => {
    await holderFile({ pid: 1, started: '5', host: 'container-b' });
    await expect(lockDataDir(dir)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/in use by a scigate process on host container-b \(pid 1, scigate\.js serve; it touched the lock \d+ s ago\)/),
    });
    await untouchedForAMinute();
    await expectTakenOver();
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
