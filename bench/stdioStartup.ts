/**
 * Spawn-to-initialize of `scigate stdio`: milliseconds from spawning the CLI to its `initialize`
 * answer on stdout, over fresh data directories, beside the same measurement of server-everything
 * (the reference MCP server, over stdio) in the same run, spawns alternating so both see the same
 * machine load. Target ≤ 1 s at p50.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, round } from './stats.js';

const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-bench', version: '0' } },
};
/** What a client sends at start-up, in one write: initialize, initialized, tools/list. */
const OPENING = [INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');
/** A spawn that never answers is a failure, not a sample. */
const SPAWN_LIMIT_MS = 30_000;
const SPAWNS = 10;

const EVERYTHING = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

/** Milliseconds from spawn to the answers to initialize (id 1) and tools/list (id 2) on stdout; a server may write notifications between. */
function spawnToAnswersMs(args: string[]): Promise<{ initialize: number; toolsList: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const limit = setTimeout(() => child.kill('SIGKILL'), SPAWN_LIMIT_MS);
    const answered = new Map<number, number>();
    let out = '';
    child.stdin.write(OPENING);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const id = /"jsonrpc":"2\.0","id":(\d+)[,}]/.exec(line)?.[1];
        if (id !== undefined && !answered.has(Number(id))) answered.set(Number(id), performance.now() - started);
      }
      if (answered.has(1) && answered.has(2)) child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(limit);
      const [initialize, toolsList] = [answered.get(1), answered.get(2)];
      if (initialize === undefined || toolsList === undefined) reject(new Error(`${args.join(' ')} exited without answering initialize and tools/list`));
      else resolve({ initialize, toolsList });
    });
  });
}

function scigateSpawn(cli: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'scigate-bench-startup-'));
  return spawnToAnswersMs([cli, 'stdio', '--data-dir', dataDir, '--log-level', 'error']).finally(() => rmSync(dataDir, { recursive: true, force: true }));
}

export interface StartupSample {
  p50: number;
  p95: number;
  samples: number[];
}

const summary = (samples: number[]): StartupSample => ({ p50: percentile(samples, 50), p95: percentile(samples, 95), samples });

type Spawns = Array<{ initialize: number; toolsList: number }>;

/** p50 and p95 of `spawns` sequential spawns of scigate and of server-everything, alternating. */
export async function measureStdioStartup(cli: string, spawns = SPAWNS) {
  const loadBefore = loadavg()[0]!;
  const scigate: Spawns = [];
  const everything: Spawns = [];
  for (let i = 0; i < spawns; i++) {
    scigate.push(await scigateSpawn(cli));
    everything.push(await spawnToAnswersMs([EVERYTHING, 'stdio']));
  }
  const of = (runs: Spawns) => ({ initialize: summary(runs.map((r) => r.initialize)), toolsList: summary(runs.map((r) => r.toolsList)) });
  return { scigate: of(scigate), everything: of(everything), load: [loadBefore, loadavg()[0]!] };
}

/** The report section: p50/p95 of 10 spawns against the 1 s target, server-everything beside it. */
export async function stdioStartupSection(cli: string): Promise<string> {
  const { scigate, everything, load } = await measureStdioStartup(cli);
  const ms = (n: number) => round(n, 0);
  const row = (label: string, s: StartupSample, target: string) => `| ${label} | ${ms(s.p50)} | ${ms(s.p95)} | ${target} |`;
  return `
## stdio start-up (${SPAWNS} spawns each, scigate and server-everything alternating, fresh data directories)

A client writes \`initialize\`, \`notifications/initialized\` and \`tools/list\` at once; milliseconds from the
spawn to each answer on stdout. Load average (1 min) at the start and end of the run: ${round(load[0]!, 1)}, ${round(load[1]!, 1)}.

| spawn → answer | p50 ms | p95 ms | target |
|---|---|---|---|
${row('`scigate stdio`: initialize', scigate.initialize, `p50 ≤ 1,000 ms: ${scigate.initialize.p50 <= 1000 ? 'met' : '**missed**'}`)}
${row('server-everything (reference peer, `node dist/index.js stdio`): initialize', everything.initialize, '')}
${row('`scigate stdio`: tools/list (storage, runtime and the sources loaded)', scigate.toolsList, '')}
${row('server-everything: tools/list', everything.toolsList, '')}

scigate / server-everything at p50: initialize ${round(scigate.initialize.p50 / everything.initialize.p50)} ×, tools/list ${round(scigate.toolsList.p50 / everything.toolsList.p50)} ×.
`;
}

// `node dist/bench/stdioStartup.js` runs this scenario alone (the full bench takes minutes).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = fileURLToPath(new URL('../bundle/scigate.js', import.meta.url));
  process.stdout.write(await stdioStartupSection(cli));
}
