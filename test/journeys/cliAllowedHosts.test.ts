import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';

const started: CliProcess[] = [];
let dataDir: string | undefined;

afterEach(async () => {
  for (const cli of started.splice(0)) {
    if (cli.child.pid && cli.child.exitCode === null) {
      process.kill(-cli.child.pid, 'SIGKILL');
      await cli.exited;
    }
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function serve(args: string[], env: Record<string, string> = {}): Promise<CliProcess> {
  dataDir ??= await mkdtemp(join(tmpdir(), 'scigate-hosts-'));
  const cli = spawnCli(['serve', '--port', '0', '--data-dir', join(dataDir, 'data'), ...args], env);
  started.push(cli);
  return cli;
}

describe('--allowed-hosts', () => {
  // The Host guard compares bare host names: an entry with a scheme, a port or brackets never matches.
  it.each([
    ['--allowed-hosts', 'scigate.example.com:7410'],
    ['--allowed-hosts', 'https://scigate.example.com'],
    ['--allowed-hosts', 'ok.example.com,[fe80::1]'],
  ])('an entry that can never match a Host (%s %s) is refused, naming the flag and the entry (exit 2)', async (flag, value) => {
    const cli = await serve([flag, value]);
    expect(await cli.exited).toBe(2);
    const bad = value.split(',').at(-1)!;
    expect(cli.output()).toContain(`--allowed-hosts takes host names or addresses without scheme, port or brackets, e.g. scigate.example.com,10.0.0.5,fe80::1; "${bad}" is not one.`);
  });

  it('SCIGATE_ALLOWED_HOSTS is checked alike, and plain names and addresses are accepted', async () => {
    const bad = await serve([], { SCIGATE_ALLOWED_HOSTS: 'scigate.example.com:443' });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('SCIGATE_ALLOWED_HOSTS (or --allowed-hosts) takes host names');

    const good = await serve(['--allowed-hosts', 'scigate.example.com, 10.0.0.5,fe80::1,scigate_internal']);
    await good.waitFor(/MCP endpoint: /);
  });
});
