import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../fixtures/cliProcess.js';

/** A user other than the file's owner: as root the command runs as nobody, since root reads any file. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A data directory of this user's in which `name` (written with `text`) is a file the command cannot read. */
async function dataDirWithUnreadable(name: string, text: string): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'scigate-unreadable-'));
  await writeFile(join(dir, name), text, { mode: 0o600 });
  if (asRoot) await chown(dir, NOBODY, NOBODY);
  else await chmod(join(dir, name), 0o000);
  return dir;
}

/** Runs the compiled CLI as the user the data directory belongs to. */
function scigate(args: string[]): { status: number | null; stderr: string } {
  const command = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath] : [process.execPath];
  const run = spawnSync(command[0]!, [...command.slice(1), CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stderr: run.stderr };
}

describe('a data directory file this user cannot read', () => {
  it('an admin token is never replaced because it cannot be read: the start stops, naming the file and what to do', async () => {
    const token = 'k'.repeat(43);
    const dataDir = await dataDirWithUnreadable('admin-token', `${token}\n`);
    const run = scigate(['token', '--data-dir', dataDir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^scigate: Cannot read the admin token file ${join(dataDir, 'admin-token')} \\(EACCES\\)`));
    expect(run.stderr).toMatch(/remove it to have a new token made/);
    // The token its holders use still opens the gateway: nothing was written over it.
    expect(await readFile(join(dataDir, 'admin-token'), 'utf8')).toBe(`${token}\n`);
  });
});
