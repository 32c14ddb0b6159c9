/**
 * Spawn-to-initialize of `scigate stdio`: milliseconds from spawning the CLI to the first byte of
 * its `initialize` answer on stdout, over fresh data directories. Target ≤ 1 s at p50.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, round } from './stats.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-bench', version: '0' } },
});
/** A spawn that never answers is a failure, not a sample. */
const SPAWN_LIMIT_MS = 30_000;

function spawnToInitializeMs(cli: string): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scigate-bench-startup-'));
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'stdio', '--data-dir', dataDir, '--log-level', 'error'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const limit = setTimeout(() => child.kill('SIGKILL'), SPAWN_LIMIT_MS);
    let answeredMs: number | undefined;
    child.stdin.write(`${INITIALIZE}\n`);
    child.stdout.once('data', () => {
      answeredMs = performance.now() - started;
      child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(limit);
      rmSync(dataDir, { recursive: true, force: true });
      if (answeredMs === undefined) reject(new Error('scigate stdio exited without answering initialize'));
      else resolve(answeredMs);
    });
  });
}

/** p50 and p95 of `spawns` sequential spawns. */
export async function measureStdioStartup(cli: string, spawns = 10): Promise<{ p50: number; p95: number; samples: number[] }> {
  const samples: number[] = [];
  for (let i = 0; i < spawns; i++) samples.push(await spawnToInitializeMs(cli));
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), samples };
}

/** The report section: p50/p95 of 10 spawns against the 1 s target. */
export async function stdioStartupSection(cli: string): Promise<string> {
  const { p50, p95 } = await measureStdioStartup(cli);
  return `
## stdio start-up (spawn to the \`initialize\` answer, 10 spawns, fresh data directories)

| p50 ms | p95 ms | target p50 ≤ 1,000 ms |
|---|---|---|
| ${round(p50, 0)} | ${round(p95, 0)} | ${p50 <= 1000 ? 'met' : '**missed**'} |
`;
}

// `node dist/bench/stdioStartup.js` runs this scenario alone (the full bench takes minutes).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = fileURLToPath(new URL('../gateway/main.js', import.meta.url));
  process.stdout.write(await stdioStartupSection(cli));
}
