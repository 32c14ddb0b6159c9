/**
 * The audit-history part of `npm run bench`: does the gateway stay flat as history grows? Drives
 * the audit stage (withAudit) over the real embedded storage (database + journal, audit log, CAS)
 * in-process — the full gateway over HTTP is too slow on a loaded machine for 100,000 calls — and
 * compares, in one run: RSS after 100,000 calls vs 10,000, a checkpoint at 100,000 vs 10,000, and
 * the start-up (open storage + mark unfinished intents) with 100,000 invocations in history.
 * Runs in its own process (for a clean RSS); also alone: `node dist/bench/auditHistoryBench.js`.
 */
import { execFile, fork } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withAudit, type AuditedRequest, type Handler } from '../gateway/broker/index.js';
import { SecretScrubber, silentLogger, systemClock, type SessionRecord } from '../gateway/core/index.js';
import { noopMetrics } from '../gateway/metrics/index.js';
import { openStorage } from '../storage/index.js';
import { median, round } from './stats.js';

const SMALL = 10_000;
const LARGE = 100_000;
const CONCURRENCY = 32;
const RUNS = 5;
/** Checkpoints are a few ms of which most is fsync on a shared disk: many alternating samples. */
const CHECKPOINT_RUNS = 21;
/** Rows in the active segment when start-up is timed (a segment seals at 4,096). */
const ACTIVE_ROWS = 4000;

export interface AuditHistoryResult {
  rssSmall: number;
  rssLarge: number;
  heapSmall: number;
  heapLarge: number;
  dbBytesSmall: number;
  dbBytesLarge: number;
  checkpointSmallMs: number;
  checkpointLargeMs: number;
  sealSmallMs: number;
  sealLargeMs: number;
  startupMs: number;
  segments: number;
  auditBytes: number;
  callsPerSecond: number;
  fsyncs: number;
  load: string;
}

const session: SessionRecord = {
  id: 'ses_bench', projectId: 'default', transport: 'http', clientName: 'bench', clientVersion: '1', approvalMode: 'always_allow', permissionEpoch: 0,
  connectors: null, createdAt: new Date().toISOString(), endedAt: null,
};

/** An upstream that answers at once with an echo-sized result, so the audit path is all that is timed. */
const echo: Handler<AuditedRequest> = async (call) => {
  const text = `Echo: ${String(call.arguments.text)}`;
  return { raw: { content: [{ type: 'text', text }] }, native: { content: [{ type: 'text', text }] }, sizeBytes: text.length + 40 };
};

async function memoryAfterGc(): Promise<{ rss: number; heap: number }> {
  // Twice, with a pause: the second collects what the first one's finalizers released.
  for (let i = 0; i < 2; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const usage = process.memoryUsage();
  if (process.env.SCIGATE_BENCH_DEBUG) process.stderr.write(`${JSON.stringify(usage)}\n`);
  return { rss: usage.rss, heap: usage.heapUsed };
}

function settleDisk(): Promise<void> {
  return new Promise((resolve) => execFile('sync', () => resolve()));
}

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The measurement itself, in the child process. */
async function measure(): Promise<AuditHistoryResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scigate-bench-audit-'));
  const smallDir = `${dataDir}-at-10k`;
  try {
    const storage = await openStorage({ dataDir, log: silentLogger });
    await storage.sessions.create(session);
    const handler = withAudit({ invocations: storage.invocations, clock: systemClock, log: silentLogger, secrets: new SecretScrubber(), metrics: noopMetrics })(echo);
    let issued = 0;
    const callsUpTo = async (total: number) => {
      const worker = async () => {
        while (issued < total) {
          const n = issued++;
          await handler({ invocationId: `inv_${n}`, toolName: 'mcp__bench__echo', arguments: { text: `call ${n}` }, session, origin: 'agent', signal: new AbortController().signal });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    };
    const started = performance.now();
    await callsUpTo(SMALL);
    const small0 = await memoryAfterGc();
    // The store as it was at 10,000 calls is kept (a copy), so the checkpoints at 10,000 and at
    // 100,000 calls are timed side by side, alternating, under the same disk load.
    await storage.database.checkpoint();
    await cp(dataDir, smallDir, { recursive: true });
    await callsUpTo(LARGE);
    const callsPerSecond = LARGE / ((performance.now() - started) / 1000);
    const large0 = await memoryAfterGc();
    // A start-up's worst case: the active segment nearly full, and calls left in flight by a crash.
    await callsUpTo(LARGE + ACTIVE_ROWS);
    for (let i = 0; i < CONCURRENCY; i++) {
      await storage.invocations.begin({ id: `inv_open_${i}`, sessionId: session.id, projectId: 'default', toolName: 'mcp__bench__echo', origin: 'agent', argumentsHash: null, startedAt: new Date().toISOString() }, new Uint8Array());
    }
    const fsyncs = storage.audit.flushCount;
    await storage.close();
    const startups: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const reopened = await openStorage({ dataDir, log: silentLogger });
      await reopened.invocations.interruptUnfinished(new Date().toISOString());
      startups.push(performance.now() - started);
      await reopened.close();
    }

    // Both stores opened the same way, then checkpointed and sealed alternately, A B B A (whichever
    // goes second may wait for the first one's journal commit). On ext4 an fsync also waits for
    // other files' dirty pages: the audit lines just written are flushed first.
    const smallStorage = await openStorage({ dataDir: smallDir, log: silentLogger });
    const largeStorage = await openStorage({ dataDir, log: silentLogger });
    await settleDisk();
    const small = { database: [] as number[], seal: [] as number[] };
    const large = { database: [] as number[], seal: [] as number[] };
    const pairs = (i: number) => (i % 2 === 0 ? [[smallStorage, small], [largeStorage, large]] : [[largeStorage, large], [smallStorage, small]]) as Array<[typeof storage, typeof small]>;
    for (let i = 0; i < CHECKPOINT_RUNS; i++) {
      for (const [store, into] of pairs(i)) into.database.push(await timedMs(() => store.database.checkpoint()));
    }
    for (let i = 0; i < CHECKPOINT_RUNS; i++) {
      for (const [store, into] of pairs(i)) {
        into.seal.push(await timedMs(async () => {
          await store.audit.seal();
          await store.audit.indexed();
        }));
      }
    }
    const dbBytesSmall = (await stat(join(smallDir, 'scigate.db'))).size;
    const dbBytesLarge = (await stat(join(dataDir, 'scigate.db'))).size;
    await smallStorage.close();
    await largeStorage.close();
    const auditDir = join(dataDir, 'audit');
    const files = await readdir(auditDir);
    let auditBytes = 0;
    for (const file of files) auditBytes += (await stat(join(auditDir, file))).size;
    return {
      rssSmall: small0.rss, rssLarge: large0.rss, heapSmall: small0.heap, heapLarge: large0.heap, dbBytesSmall, dbBytesLarge,
      checkpointSmallMs: median(small.database), checkpointLargeMs: median(large.database), sealSmallMs: median(small.seal), sealLargeMs: median(large.seal),
      startupMs: median(startups), segments: files.filter((f) => f.endsWith('.log')).length, auditBytes, callsPerSecond, fsyncs,
      load: loadavg().map((n) => n.toFixed(2)).join(' '),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(smallDir, { recursive: true, force: true });
  }
}

/** Runs the measurement in a child process (with --expose-gc) and renders its section of docs/benchmarks.md. */
export async function auditHistorySection(): Promise<string> {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const result = await new Promise<AuditHistoryResult>((resolve, reject) => {
    child.once('message', (m: AuditHistoryResult | { error: string }) => ('error' in m ? reject(new Error(m.error)) : resolve(m)));
    child.once('exit', (code) => code !== 0 && reject(new Error(`audit history bench exited ${code}`)));
  });
  return renderAuditHistory(result);
}

export function renderAuditHistory(r: AuditHistoryResult): string {
  const mb = (n: number) => round(n / 1_048_576, 1);
  const check = (ok: boolean) => (ok ? 'met' : '**missed**');
  const rssRatio = round(r.rssLarge / r.rssSmall);
  const checkpointRatio = round(r.checkpointLargeMs / r.checkpointSmallMs);
  return `
## Audit history: flat over 100,000 calls

Measured in-process (bench/auditHistoryBench.ts): the audit stage (\`withAudit\`) over the real
embedded storage in a temporary data directory, an upstream that answers at once, ${CONCURRENCY} calls
in flight; the full gateway over HTTP would take too long for 100,000 calls on this loaded machine.
Not in this path: a dangerous call allowed under \`always_allow\` or by a Grant also appends its
single-use permission authorization, a third line in the same audit log (no longer a database row).
Load average during the run: ${r.load}. ${r.fsyncs.toLocaleString('en')} audit fsyncs for ${(2 * LARGE).toLocaleString('en')} records
(group commit), ${round(r.callsPerSecond, 0)} audited calls/s; ${r.segments} segments, ${mb(r.auditBytes)} MiB on disk.

| measure | at 10,000 calls | at 100,000 calls | ratio | target | |
|---|---|---|---|---|---|
| RSS after a GC (MiB) | ${mb(r.rssSmall)} | ${mb(r.rssLarge)} | ${rssRatio} × | ≤ 1.2 × | ${check(rssRatio <= 1.2)} |
| JavaScript heap used after a GC (MiB) | ${mb(r.heapSmall)} | ${mb(r.heapLarge)} | ${round(r.heapLarge / r.heapSmall)} × | | |
| database file (KiB) | ${round(r.dbBytesSmall / 1024, 0)} | ${round(r.dbBytesLarge / 1024, 0)} | ${round(r.dbBytesLarge / r.dbBytesSmall)} × | | |
| checkpoint: database export + journal truncate (ms, median of ${CHECKPOINT_RUNS}, the two stores alternating) | ${round(r.checkpointSmallMs, 1)} | ${round(r.checkpointLargeMs, 1)} | ${checkpointRatio} × | ≤ 1.2 × | ${check(checkpointRatio <= 1.2)} |
| sealing the active audit segment + its index (ms, median of ${CHECKPOINT_RUNS}, alternating) | ${round(r.sealSmallMs, 1)} | ${round(r.sealLargeMs, 1)} | ${round(r.sealLargeMs / r.sealSmallMs)} × | | |
| start-up: open storage + mark unfinished intents (ms, median of ${RUNS}; ${ACTIVE_ROWS.toLocaleString('en')} rows in the active segment, ${CONCURRENCY} intents left open) | | ${round(r.startupMs, 0)} | | ≤ 2,000 ms | ${check(r.startupMs <= 2000)} |
`;
}

if (process.argv.includes('--child')) {
  measure().then(
    (result) => process.send!(result, undefined, {}, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String((error as Error)?.stack ?? error) }, undefined, {}, () => process.exit(1)),
  );
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(await auditHistorySection());
}
