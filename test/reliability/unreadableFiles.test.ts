import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, spawnProcess, type CliProcess } from '../fixtures/cliProcess.js';

/** A user other than the file's owner: as root the command runs as nobody, since root reads any file. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

let dir: string | undefined;
let running: CliProcess | undefined;
afterEach(async () => {
  if (running?.child.pid && running.child.exitCode === null) {
    process.kill(-running.child.pid, 'SIGKILL');
    await running.exited;
  }
  running = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A fresh data directory belonging to the user the commands run as. */
async function privateDataDir(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'scigate-unreadable-'));
  if (asRoot) await chown(dir, NOBODY, NOBODY);
  return dir;
}

/** Writes `name` in the data directory as a file the commands cannot read (root's, or mode 000). */
async function writeUnreadable(dataDir: string, name: string, text: string): Promise<void> {
  await writeFile(join(dataDir, `${name}.new`), text, { mode: 0o600 });
  if (!asRoot) await chmod(join(dataDir, `${name}.new`), 0o000);
  await rename(join(dataDir, `${name}.new`), join(dataDir, name));
}

/** The compiled CLI, run as the user the data directory belongs to. */
const command = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath] : [process.execPath];

function scigate(args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(command[0]!, [...command.slice(1), CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stderr: run.stderr };
}

describe('a data directory file this user cannot read', () => {
  it('an admin token is never replaced because it cannot be read: the start stops, naming the file and what to do', async () => {
    const token = 'k'.repeat(43);
    const dataDir = await privateDataDir();
    await writeUnreadable(dataDir, 'admin-token', `${token}\n`);
    const run = scigate(['token', '--data-dir', dataDir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^scigate: Cannot read the admin token file ${join(dataDir, 'admin-token')} \\(EACCES\\)`));
    expect(run.stderr).toMatch(/remove it to have a new token made/);
    // The token its holders use still opens the gateway: nothing was written over it.
    expect(await readFile(join(dataDir, 'admin-token'), 'utf8')).toBe(`${token}\n`);
  });

  it('an admin token rotated into a file the running gateway cannot read keeps the token in force, and the log says why', async () => {
    const dataDir = await privateDataDir();
    running = spawnProcess(command[0]!, [...command.slice(1), CLI, 'serve', '--port', '0', '--data-dir', dataDir]);
    const [, mcpUrl] = await running.waitFor(/MCP endpoint: (\S+)/);
    const api = mcpUrl!.replace(/\/mcp$/, '/api/sessions');
    const status = async (token: string) => (await fetch(api, { headers: { authorization: `Bearer ${token}` } })).status;
    const old = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    expect(await status(old)).toBe(200);
    // A rotation written by another user (root, through sudo) or with a mode that forbids reading.
    const fresh = 'n'.repeat(43);
    await writeUnreadable(dataDir, 'admin-token', `${fresh}\n`);
    // The gateway looks at its token file once a second: a generous limit, no claim about speed.
    await running.waitFor(/"code":"EACCES".*the admin token file changed but cannot be read/);
    expect(await status(old)).toBe(200);
    expect(await status(fresh)).toBe(401);
  });

  // Only root can give a directory to another user for the test.
  it.skipIf(!asRoot)('a data directory of another user is refused saying whose it is and what to do, not with a bare EPERM', async () => {
    const dataDir = await privateDataDir();
    const theirs = join(dataDir, 'theirs');
    await mkdir(theirs, { mode: 0o755 });
    const run = scigate(['serve', '--port', '0', '--data-dir', theirs]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `scigate: The directory ${theirs} belongs to another user (uid 0), so scigate, running as uid ${NOBODY}, cannot make it private. ` +
        `Give it to the user scigate runs as (chown -R ${NOBODY} ${theirs}), or choose a directory of your own with --data-dir (SCIGATE_DATA_DIR).\n`,
    );
  });
});
