import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processStartTicks } from '../../gateway/upstream/index.js';
import { PROCESS_GROUPS_DIR, ProcessGroupFiles } from '../../storage/index.js';
import { isAlive, spawnCli, waitUntil, type CliProcess } from '../fixtures/cliProcess.js';

const hostile = fileURLToPath(new URL('../fixtures/servers/hostileServer.mjs', import.meta.url));
const cleanup: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function killGroupQuietly(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-orphans-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts the compiled gateway on `dir`; resolves once it serves, with its admin URL and token. */
async function serve(dir: string): Promise<{ gateway: CliProcess; url: string; token: string }> {
  const gateway = spawnCli(['serve', '--port', '0', '--data-dir', dir]);
  cleanup.push(() => killGroupQuietly(gateway.child.pid!));
  const [, url] = await gateway.waitFor(/Admin API:\s+(\S+)\/api/, 60_000);
  const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim();
  return { gateway, url: url!, token };
}

/** A program that only SIGKILL ends, as the leader of its own process group. */
function stubbornGroup(): number {
  const child = spawn(process.execPath, [hostile, '--ignore-eof'], { detached: true, stdio: 'ignore' });
  child.unref();
  cleanup.push(() => killGroupQuietly(child.pid!));
  return child.pid!;
}

describe('no stdio server outlives its gateway', () => {
  it('kill -9 of the gateway ends a custom stdio server that ignores stdin EOF and SIGTERM', async () => {
    const dir = await freshDir();
    const { gateway, url, token } = await serve(dir);
    const pidFile = join(dir, 'server.pid');
    const created = await fetch(`${url}/api/mcp/servers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Stubborn', transport: 'stdio', command: process.execPath, args: [hostile, '--ignore-eof'], enabled: true,
        env: [{ key: 'PID_FILE', value: pidFile }],
      }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as any).server.connection.state).toBe('ready');
    const pid = Number(await readFile(pidFile, 'utf8'));
    cleanup.push(() => killGroupQuietly(pid));
    expect(isAlive(pid)).toBe(true);
    expect(await waitUntil(() => existsSync(join(dir, PROCESS_GROUPS_DIR, `${pid}.json`)), 30_000)).toBe(true);

    process.kill(gateway.child.pid!, 'SIGKILL');
    await gateway.exited;
    expect(await waitUntil(() => !isAlive(pid), 30_000)).toBe(true);
  });

  it('a restarted gateway kills the groups a dead gateway recorded, and leaves a live gateway\'s groups alone', async () => {
    const dir = await freshDir();
    const records = new ProcessGroupFiles(dir);
    const leftover = stubbornGroup();
    const other = stubbornGroup();
    expect(await waitUntil(() => processStartTicks(leftover) !== undefined && processStartTicks(other) !== undefined, 30_000)).toBe(true);
    // The leftover's gateway is dead (a pid that never ran with that start time); the other's is this test process.
    await records.add({ pgid: leftover, startTicks: processStartTicks(leftover)!, ownerPid: 2 ** 22 + 1, ownerStartTicks: '1' });
    await records.add({ pgid: other, startTicks: processStartTicks(other)!, ownerPid: process.pid, ownerStartTicks: processStartTicks(process.pid)! });

    await serve(dir);
    expect(await waitUntil(() => !isAlive(leftover), 30_000)).toBe(true);
    expect(isAlive(other)).toBe(true);
    expect((await records.list()).map((e) => e.pgid)).toEqual([other]);
  });
});
