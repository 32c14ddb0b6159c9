/**
 * `node dist/bench/storeBench.js`: the governed call on PostgreSQL against the embedded store, side by
 * side in one run (two gateway processes, alternating rounds), on a PostgreSQL with durable commits
 * started in a temp dir. Replaces its section of docs/benchmarks.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../test/fixtures/postgres.js';
import { loadParallel } from './loadRunner.js';
import { median, percentile, round } from './stats.js';

const ROUNDS = 3;
const TITLE = '## Store: embedded vs PostgreSQL';

/** A bench gateway (bench/benchGateway.ts: the stdio echo server as the `bench` source), on `store` when given. */
async function startBenchGateway(store?: string): Promise<{ child: ChildProcess; target: { kind: 'http'; url: string; token: string } }> {
  const args = ['http://127.0.0.1:9/api', ...(store ? [store] : [])];
  const child = fork(fileURLToPath(new URL('./benchGateway.js', import.meta.url)), args, { stdio: 'inherit' });
  const ready = await new Promise<{ mcpUrl: string; token: string }>((resolve) => child.once('message', resolve as never));
  return { child, target: { kind: 'http', url: ready.mcpUrl, token: ready.token } };
}

async function measure(target: { kind: 'http'; url: string; token: string }) {
  const job = { target, tool: 'mcp__bench__echo', args: 'distinct' as const, argName: 'text' as const, calls: 300, concurrency: 1, warmup: 30 };
  const seq = await loadParallel(job, 1);
  const load = await loadParallel({ ...job, calls: 300, concurrency: 8, warmup: 0 }, 2);
  return { p50: percentile(seq.latenciesMs, 50), p95: percentile(seq.latenciesMs, 95), callsPerSecond: load.callsPerSecond };
}

async function main() {
  const loadBefore = loadavg()[0]!;
  const postgres = await startPostgres({ durable: true });
  const version = await postgresVersion(postgres);
  const embedded = await startBenchGateway();
  const onPostgres = await startBenchGateway(postgres.url());
  const results: Record<'embedded' | 'postgres', Array<Awaited<ReturnType<typeof measure>>>> = { embedded: [], postgres: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      results.embedded.push(await measure(embedded.target));
      results.postgres.push(await measure(onPostgres.target));
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
  } finally {
    for (const gateway of [embedded, onPostgres]) gateway.child.send({ type: 'stop' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await postgres.stop();
  }
  const m = (store: 'embedded' | 'postgres', key: 'p50' | 'p95' | 'callsPerSecond') => median(results[store].map((r) => r[key]));
  const row = (label: string, store: 'embedded' | 'postgres') => `| ${label} | ${round(m(store, 'p50'))} | ${round(m(store, 'p95'))} | ${round(m(store, 'callsPerSecond'), 0)} |`;
  const section = `
${TITLE}

Made by \`node dist/bench/storeBench.js\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${round(loadBefore, 1)} (1 min) at the start, shared with other work.
Two gateway processes side by side, each in front of its own copy of the same stdio echo server, alternating rounds (medians of ${ROUNDS}); PostgreSQL ${version} on
loopback in a temp dir with durable commits (fsync on, \`synchronous_commit\` on). Governed calls, cache off, audit on; latencies in ms.

| store | p50 (one at a time) | p95 | calls/s (2 clients × 8) |
|---|---|---|---|
${row('embedded (sql.js + journal + file CAS)', 'embedded')}
${row('PostgreSQL (\`--store postgres://…\`)', 'postgres')}

PostgreSQL p50 / embedded p50: ${round(m('postgres', 'p50') / m('embedded', 'p50'))} ×. A governed call writes the Invocation row and two CAS blobs
(arguments, result): on PostgreSQL three autocommitted statements, each a WAL flush, over a loopback socket,
against one journal group-commit plus two atomic file writes on the embedded store.
`;
  process.stdout.write(section);
  const path = join(fileURLToPath(new URL('../../', import.meta.url)), 'docs/benchmarks.md');
  const current = readFileSync(path, 'utf8').replace(new RegExp(`\\n${TITLE}[\\s\\S]*?(?=\\n## (?!Store: )|$)`), '');
  writeFileSync(path, `${current.trimEnd()}\n${section}`);
}

async function postgresVersion(postgres: { query(sql: string): Promise<Array<Record<string, unknown>>> }): Promise<string> {
  return String((await postgres.query('SHOW server_version'))[0]?.server_version ?? '?').split(' ')[0]!;
}

await main();
