import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, loadAdminToken } from '../../../storage/index.js';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe('the data directory', () => {
  it('refuses a shared 1777 directory with a message, and leaves its mode alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-private-'));
    const shared = join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    await expect(ensurePrivateDir(shared)).rejects.toThrow(/is shared \(mode 1777.*--data-dir \(SCIGATE_DATA_DIR\)/);
    expect(await modeOf(shared)).toBe(0o1777);
  });

  it('refuses a world-writable directory too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-private-'));
    await chmod(dir, 0o777);
    await expect(ensurePrivateDir(dir)).rejects.toThrow(/is shared \(mode 777/);
  });

  it('refuses a file, a path through a file, and a place it cannot create a directory in, with what to do; never spins under /proc', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-private-'));
    const file = join(dir, 'afile');
    await writeFile(file, 'x');
    await expect(ensurePrivateDir(file)).rejects.toThrow(`The data directory ${file} is a file, not a directory. Give --data-dir (SCIGATE_DATA_DIR) a directory (created if missing).`);
    await expect(ensurePrivateDir(join(file, 'sub'))).rejects.toThrow(`Cannot create the directory ${join(file, 'sub')} (a part of the path is a file at ${join(file, 'sub')}).`);
    // Node 20's recursive mkdir loops forever here; this one gives up at once.
    await expect(ensurePrivateDir('/proc/scigate-x/data')).rejects.toThrow(/^Cannot create the directory \/proc\/scigate-x\/data \(.* at \/proc\/scigate-x\)/);
  });

  it('creates a missing directory, and tightens one of its own, to 0700', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-private-'));
    await ensurePrivateDir(join(dir, 'new', 'nested'));
    expect(await modeOf(join(dir, 'new', 'nested'))).toBe(0o700);
    await chmod(dir, 0o755);
    await ensurePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });
});

describe('the admin token file', () => {
  it('tightens an existing 0644 token to 0600 and keeps the token', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scigate-private-'));
    const token = 'a'.repeat(43);
    await writeFile(join(dir, 'admin-token'), `${token}\n`, { mode: 0o644 });
    await chmod(join(dir, 'admin-token'), 0o644);
    const loaded = await loadAdminToken(dir);
    expect(loaded).toMatchObject({ token, created: false });
    expect(await modeOf(join(dir, 'admin-token'))).toBe(0o600);
  });
});
