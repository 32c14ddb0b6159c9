import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliProcess } from '../fixtures/cliProcess.js';

let cli: CliProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  if (cli?.child.pid && cli.child.exitCode === null) {
    process.kill(-cli.child.pid, 'SIGKILL');
    await cli.exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  [cli, dataDir] = [undefined, undefined];
});

describe('--download-mirrors', () => {
  // A download's path replaces the mirror's, and only the public URL's origin is looked up: a path would be dropped unsaid.
  it.each([
    ['{"https://arxiv.org":"http://127.0.0.1:8123/mirror"}', 'http://127.0.0.1:8123/mirror'],
    ['{"https://arxiv.org/pdf":"http://127.0.0.1:8123"}', 'https://arxiv.org/pdf'],
  ])('a URL with a path (%s) is refused at start, naming the flag and the URL (exit 2)', async (mirrors, named) => {
    dataDir = await mkdtemp(join(tmpdir(), 'scigate-mirrors-'));
    cli = spawnCli(['serve', '--port', '0', '--data-dir', join(dataDir, 'data'), '--download-mirrors', mirrors]);
    const outcome = await Promise.race([cli.exited, cli.waitFor(/MCP endpoint: /).then(() => 'running', () => 'exited')]);
    expect(outcome).toBe(2);
    expect(cli.output()).toContain(`--download-mirrors (SCIGATE_DOWNLOAD_MIRRORS): ${named} has a path; a mirror maps one origin to another, e.g. {"https://arxiv.org":"http://127.0.0.1:8123"}.`);
  });
});
