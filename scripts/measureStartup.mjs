// Measures how soon `scigate stdio` can answer: the module loading it does before it answers, the
// time from spawning `dist/bundle/scigate.js stdio` to the first byte of its `initialize` answer, and
// to its first `tools/list` answer.
// Usage: npm run build && node scripts/measureStartup.mjs [runs=7] [path/to/main.js]
// Wall times swing with machine load; the CPU time of module loading (user + system) swings less.
//
// "Module loading before it can answer" is the static module graph of main.js plus that of
// commands/stdioCommand.js (the one module main.js imports for `stdio`; its chunk in the bundle): everything
// else (the MCP SDK and zod, storage, runtime, sources, pino, express) is imported only after the
// first answer. Before
// the stdio fast path main.js was the whole gateway, so importing it alone measured the same thing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const main = resolve(process.argv[3] ?? join(root, 'dist/bundle/scigate.js'));
// Compiled modules have commands/stdioCommand.js beside main.js; the bundle has a stdioCommand-<hash>.js chunk.
const compiled = join(dirname(main), 'commands/stdioCommand.js');
const chunk = readdirSync(dirname(main)).find((name) => /^stdioCommand-[\w-]+\.js$/.test(name));
const beforeAnswer = [main, ...(existsSync(compiled) ? [compiled] : chunk ? [join(dirname(main), chunk)] : [])];

const initialize = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-probe', version: '0' } },
});
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

/** Wall and CPU milliseconds to import the modules loaded before the answer (main.js only runs when invoked directly). */
function importMs() {
  const imports = beforeAnswer.map((path) => `await import(${JSON.stringify(path)});`).join('');
  const probe =
    `const t=performance.now(),c=process.cpuUsage();${imports}` +
    `const u=process.cpuUsage(c);process.stderr.write(JSON.stringify([performance.now()-t,(u.user+u.system)/1000]));`;
  return run(process.execPath, ['--input-type=module', '-e', probe]).then(({ stderr }) => JSON.parse(stderr.trim()));
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', () => resolve({ stderr }));
  });
}

/**
 * CPU milliseconds (user + system) a child has used so far, from /proc on Linux (undefined elsewhere):
 * unlike wall time, it hardly moves with the machine's load. Assumes the usual 100 clock ticks a second.
 */
function cpuMsOf(pid) {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Milliseconds from spawn to the first byte of the `initialize` answer on stdout, and to the
 * `tools/list` answer (written with it, after `notifications/initialized`): that one waits for
 * storage, the runtime and the sources.
 */
function answerMs() {
  const dataDir = mkdtempSync(join(tmpdir(), 'scigate-startup-'));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [main, 'stdio', '--data-dir', dataDir, '--log-level', 'error'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.write(`${initialize}\n${initialized}\n${toolsList}\n`);
    let first;
    let firstCpu;
    let out = '';
    child.stdout.on('data', (chunk) => {
      if (first === undefined) {
        first = performance.now() - started;
        firstCpu = cpuMsOf(child.pid);
      }
      out += chunk;
      if (!/"jsonrpc":"2\.0","id":2[,}]/.test(out)) return;
      const listed = performance.now() - started;
      const listedCpu = cpuMsOf(child.pid);
      child.kill('SIGTERM');
      child.once('exit', () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve([first, listed, firstCpu, listedCpu]);
      });
    });
    child.on('error', reject);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const imports = [];
const answers = [];
for (let i = 0; i < runs; i++) {
  imports.push(await importMs());
  answers.push(await answerMs());
}
console.log(`module loading (import ${beforeAnswer.join(' + ')}): median ${median(imports.map((i) => i[0])).toFixed(0)} ms wall, ${median(imports.map((i) => i[1])).toFixed(0)} ms CPU, ${runs} runs`);
const cpu = (i) => (answers[0][i] === undefined ? '' : `, ${median(answers.map((a) => a[i])).toFixed(0)} ms CPU in the process`);
console.log(`spawn → first byte of initialize answer:       median ${median(answers.map((a) => a[0])).toFixed(0)} ms wall${cpu(2)}, ${runs} runs`);
console.log(`spawn → tools/list answer (runtime built):     median ${median(answers.map((a) => a[1])).toFixed(0)} ms wall${cpu(3)}, ${runs} runs`);
console.log(`bare node start (for reference):              median ${median(await bareNode()).toFixed(0)} ms`);

async function bareNode() {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run(process.execPath, ['-e', '0']);
    times.push(performance.now() - started);
  }
  return times;
}
