/**
 * The artifact_download benchmark: a 200 MB file from a loopback file server, fetched by scigate
 * (artifact_download through a real SDK client, audit on, sha256 verified, fsync + rename), by
 * `curl -o` and by a plain Node.js download in the same run; throughput ratios, CPU time of each,
 * and the gateway's RSS growth during the download.
 * Runs alone (`node dist/bench/downloadBench.js`, appends its section to docs/benchmarks.md) or
 * from bench/run.ts.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median, round } from './stats.js';

const SIZE = 200 * 1024 * 1024;
/** Rounds of one download of each kind; more than a few, because the load of a shared machine moves from one to the next. */
const RUNS = Number(process.env.DOWNLOAD_BENCH_RUNS ?? 9);
const NAME = 'big.bin';
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** A file of SIZE random bytes, and its sha256. */
async function makeFile(dir: string): Promise<{ path: string; sha256: string }> {
  const path = join(dir, NAME);
  const handle = await open(path, 'w');
  const hash = createHash('sha256');
  for (let written = 0; written < SIZE; written += 1 << 20) {
    const chunk = randomBytes(1 << 20);
    hash.update(chunk);
    await handle.write(chunk);
  }
  await handle.close();
  return { path, sha256: hash.digest('hex') };
}

/** Starts the file server (bench/downloadFileServer.ts) in its own process. */
async function serveFile(path: string): Promise<{ server: ChildProcess; origin: string }> {
  const server = fork(here('./downloadFileServer.js'), [path, String(SIZE)], { stdio: 'inherit' });
  const { origin } = await new Promise<{ origin: string }>((resolve) => server.once('message', resolve as never));
  return { server, origin };
}

interface Run {
  seconds: number;
  /** CPU time (user + system) the downloader spent, in ms. */
  cpuMs: number;
}

/**
 * Asynchronous: the file server runs in this process and must keep serving while curl reads. The
 * shell's `times` reports curl's CPU time (its children's user and system time). With `verified`,
 * curl is followed by what scigate does besides receiving: the file's sha256 (OpenSSL's, with the
 * CPU's SHA instructions, as Node's; coreutils' sha256sum is 4 times slower here) and its fsync.
 */
async function curlRun(url: string, out: string, verified = false): Promise<Run> {
  const started = process.hrtime.bigint();
  const script = verified ? 'curl -s -f -o "$1" "$2" && openssl dgst -sha256 "$1" >/dev/null && sync "$1" && times' : 'curl -s -f -o "$1" "$2" && times';
  const { stdout } = await promisify(execFile)('sh', ['-c', script, 'sh', out, url]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const children = stdout.trim().split('\n').at(-1)!.match(/(\d+)m([\d.]+)s/g) ?? [];
  const cpuMs = children.reduce((sum, t) => {
    const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t)!;
    return sum + (Number(m) * 60 + Number(sec)) * 1000;
  }, 0);
  return { seconds, cpuMs };
}

/** The physical-limit row: a plain node:http pipe to a file (sha256, fsync) in its own process. */
async function nodeRun(child: ChildProcess, url: string, out: string): Promise<Run> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Run));
    child.send({ url, out });
  });
}

/** Asks the gateway child for one figure; its answer is the next message of that type (RSS samples may be in flight). */
function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: { type?: string }) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

/** A process's resident set in bytes, from /proc/<pid>/statm (Linux). */
function residentBytes(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
}
const PAGE_BYTES = 4096;

/** One artifact_download of the file in a fresh Session; seconds, the gateway's CPU ms, and the peak RSS growth over the idle (after GC) RSS. */
async function gatewayRun(child: ChildProcess, ready: { url: string; mcpUrl: string; token: string; dataDir: string }, n: number): Promise<Run & { rssGrowth: number; file: string }> {
  const client = new Client({ name: `bench-${n}`, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(ready.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${ready.token}` } } }));
  const headers = { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' };
  const sessions = (await (await fetch(`${ready.url}/api/sessions`, { headers })).json()) as { sessions: Array<{ id: string; clientName: string }> };
  const session = sessions.sessions.find((s) => s.clientName === `bench-${n}`)!;
  await fetch(`${ready.url}/api/sessions/${session.id}`, { method: 'PATCH', headers, body: JSON.stringify({ approvalMode: 'always_allow' }) });
  const search = (await client.callTool({ name: 'mcp__files__search', arguments: { query: NAME } })) as unknown as { structuredContent: { invocationId: string; artifacts: Array<{ id: string }> } };
  child.send({ type: 'gc' });
  const idle = (await ask<{ rss: number }>(child, 'rss')).rss;
  let peak = idle;
  const cpuBefore = (await ask<{ cpu: NodeJS.CpuUsage }>(child, 'cpu')).cpu;
  // Read from /proc by this process: asking the gateway would wake its event loop 20 times a second.
  const sampling = setInterval(() => (peak = Math.max(peak, residentBytes(child.pid!))), 50);
  const started = process.hrtime.bigint();
  const result = (await client.callTool(
    { name: 'artifact_download', arguments: { mcpInvocationId: search.structuredContent.invocationId, candidateId: search.structuredContent.artifacts[0]!.id } },
    undefined,
    { timeout: 600_000 },
  )) as { isError?: boolean; structuredContent: { finalPath?: string } };
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampling);
  const cpuAfter = (await ask<{ cpu: NodeJS.CpuUsage }>(child, 'cpu')).cpu;
  if (result.isError) throw new Error(`artifact_download failed: ${JSON.stringify(result.structuredContent)}`);
  await client.close();
  const file = join(ready.dataDir, 'workspaces', session.id, result.structuredContent.finalPath!);
  return { seconds, cpuMs: (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / 1000, rssGrowth: peak - idle, file };
}

/** Runs the scenario and returns its markdown section. */
export async function runDownloadBench(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scigate-dlbench-src-'));
  try {
    const file = await makeFile(dir);
    const { server, origin } = await serveFile(file.path);
    const child = fork(here('./downloadBenchGateway.js'), [origin, NAME, String(SIZE), file.sha256], { execArgv: ['--expose-gc'], stdio: 'inherit' });
    const ready = await new Promise<{ url: string; mcpUrl: string; token: string; dataDir: string }>((r) => child.once('message', r as never));
    const plain = fork(here('./nodeHttpDownload.js'), { stdio: 'inherit' });
    await new Promise((r) => plain.once('message', r));
    const loadBefore = loadavg()[0]!;
    const runs = { curl: [] as Run[], curlVerified: [] as Run[], node: [] as Run[], gateway: [] as Array<Run & { rssGrowth: number }> };
    const url = `${origin}/${NAME}`;
    // Alternated, so that each kind of download sees the same changes of the machine's load. Each
    // file is deleted after its run, the gateway's too: on this virtual machine, memory the kernel
    // has not used lately is handed back to the host, and page cache written into such memory
    // costs about 2.5 ms of system time per MiB (200 MiB: ~500 ms) where recycled memory costs
    // almost none; a downloader whose files pile up would pay that and the others would not.
    const round = async (run: number) => {
      const curl = await curlRun(url, join(dir, 'curl.bin'));
      await rm(join(dir, 'curl.bin'));
      const curlVerified = await curlRun(url, join(dir, 'curl.bin'), true);
      await rm(join(dir, 'curl.bin'));
      const node = await nodeRun(plain, url, join(dir, 'node.bin'));
      await rm(join(dir, 'node.bin'));
      const gateway = await gatewayRun(child, ready, run);
      await rm(gateway.file);
      return { curl, curlVerified, node, gateway };
    };
    // A first round whose times are not counted (as a latency bench's warm-up calls): each
    // downloader's first run pays one-time costs (the gateway's first call and download worker
    // start, page cache of the served file). Its RSS growth is counted: a first download's worker
    // is part of what a download costs in memory.
    const warmUp = await round(-1);
    for (let run = 0; run < RUNS; run++) {
      const r = await round(run);
      runs.curl.push(r.curl);
      runs.curlVerified.push(r.curlVerified);
      runs.node.push(r.node);
      runs.gateway.push(r.gateway);
      process.stderr.write(`download run ${run + 1}/${RUNS} done\n`);
    }
    const loadAfter = loadavg()[0]!;
    plain.kill();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'stop' });
    await exited;
    server.kill();
    await rm(ready.dataDir, { recursive: true, force: true });
    return renderSection(runs, warmUp.gateway.rssGrowth, { before: loadBefore, after: loadAfter });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function renderSection(
  runs: { curl: Run[]; curlVerified: Run[]; node: Run[]; gateway: Array<Run & { rssGrowth: number }> },
  warmUpRssGrowth: number,
  load: { before: number; after: number },
): string {
  const seconds = (r: Run[]) => median(r.map((x) => x.seconds));
  const cpuMs = (r: Run[]) => median(r.map((x) => x.cpuMs));
  const curlS = seconds(runs.curl);
  const row = (label: string, r: Run[]) =>
    `| ${label} | ${round(seconds(r), 2)} | ${round(SIZE / 1_048_576 / seconds(r), 0)} | ${round(curlS / seconds(r))} × | ${round(cpuMs(r), 0)} | ${r.map((x) => round(x.seconds, 2)).join(', ')} |`;
  const ratio = round(curlS / seconds(runs.gateway));
  // Each round's curl and scigate ran seconds apart, under about the same load: the median of their
  // ratios moves less with the machine's load than the ratio of the medians.
  const roundRatios = runs.gateway.map((g, i) => runs.curl[i]!.seconds / g.seconds);
  const pairedRatio = round(median(roundRatios));
  const nodeRatio = round(curlS / seconds(runs.node));
  const vsNode = round(seconds(runs.node) / seconds(runs.gateway));
  const vsVerified = round(seconds(runs.curlVerified) / seconds(runs.gateway));
  const growths = [warmUpRssGrowth, ...runs.gateway.map((g) => g.rssGrowth)];
  const growth = Math.max(...growths) / 1_048_576;
  return `
## Download: artifact_download of a 200 MiB file vs \`curl -o\` (${new Date().toISOString().slice(0, 10)})

Made by bench/downloadBench.ts (\`npm run bench\`, or alone: \`npm run build && node dist/bench/downloadBench.js\`):
a loopback file server (its own process, bench/downloadFileServer.ts) streams ${SIZE} random bytes from disk; \`curl -s -o\`, the same followed by what
scigate does besides receiving (sha256 of the file with OpenSSL, fsync with \`sync FILE\`), a plain Node.js download
(bench/nodeHttpDownload.ts: node:http piped to a file, sha256 on the way, fsync; the physical limit of a
Node.js downloader on this machine) and scigate's artifact_download (SDK client → gateway child process;
candidate read from the stored search result, plan, always_allow authorization, streamed to the part
file, sha256 verified against the candidate, fsync + rename, audit row) fetch it in turn, one warm-up round
and then ${RUNS} counted times each; medians. ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; 1-minute load average
(\`uptime\`) ${round(load.before, 1)} when the downloads started and ${round(load.after, 1)} when they ended.

| downloader | seconds | MiB/s | throughput vs curl | CPU ms (user + system) | every run, s |
|---|---|---|---|---|---|
${row('\`curl -o\`', runs.curl)}
${row('\`curl -o\`, then \`openssl dgst -sha256\` and \`sync\` of the file', runs.curlVerified)}
${row('plain Node.js: node:http → file, sha256, fsync', runs.node)}
${row('scigate artifact_download', runs.gateway)}

| target | value | |
|---|---|---|
| scigate throughput ≥ 0.8 × curl (medians) | ${ratio} × | ${ratio >= 0.8 ? 'met' : '**missed**'} |
| the same, median of each round's curl / scigate | ${pairedRatio} × (rounds: ${roundRatios.map((r) => round(r)).join(', ')}) | ${pairedRatio >= 0.8 ? 'met' : '**missed**'} |
| scigate throughput vs curl followed by openssl's sha256 and sync (the same work, one step after the other) | ${vsVerified} × | |
| scigate throughput vs the plain Node.js download (same run) | ${vsNode} × | |
| plain Node.js download vs curl (the ceiling for any Node.js downloader here) | ${nodeRatio} × | |
| gateway RSS growth during the download < 50 MB | ${round(growth, 1)} MiB (peak over idle, sampled every 50 ms; the warm-up run, then each run: ${growths.map((g) => round(g / 1_048_576, 0)).join(', ')}) | ${growth < 50 ? 'met' : '**missed**'} |

How scigate downloads (gateway/artifacts/downloadWorker.mjs, rawHttpGet.mjs, httpResponseReader.mjs,
hashWorker.mjs, workerTransfer.ts): each download run has a worker thread (one is kept warm after a
download that ended cleanly; starting one costs 60–150 ms here, begun when the call names a valid
candidate, so it overlaps storing the plan and asking for permission: a user's decision hides it,
always_allow hardly does and the uncounted warm-up run pays most of it). The worker sends each GET
over a connection of its own and reads the socket into one reused 1 MiB buffer (net/tls \`onread\`),
with its own strict HTTP/1.1 response reader, and writes every run of body bytes straight from that
buffer to the part file with a positional write on the descriptor the main thread opened: no buffer
is allocated per read, no stream event runs per read, and nothing is left for the garbage collector.
node:http, used before, read every 64 KiB into a new buffer through llhttp and a stream event, which
cost the receiving thread about twice the CPU (a worker harness, alternating runs: 250–300 ms of user
CPU per 200 MiB with node:http, 150–200 ms now) and needed forced collections to keep its resident
memory down. Its own worker, the hasher, reads the part file back from the page cache a MiB or so
behind it into one reused 1 MiB buffer and hashes it (sha256 and the candidate's algorithm), so
hashing (about 120 ms of CPU per 200 MiB) never sits between two socket reads. Every 32 MiB written
the worker has the thread pool fdatasync the part file while the rest arrives, so the commit's fsync
finds little to write. The main thread keeps every decision (redirect re-checks, status, Range
offsets, size limit, checksum, job states, progress every 1 % to the client, bytes done to the job's
record once a second) and hears from the worker at most every 50 ms; no body byte is copied between
threads.

What the machine adds: this is a virtual machine whose kernel hands memory it has not used lately
back to the host, and page cache written into such memory costs about 2.5 ms of system time per MiB
(a 200 MiB file: 500–760 ms of system time in the download worker alone, against 110–150 ms into
memory a deleted file had just freed; alternating runs of the same worker). Every downloader's file
is therefore deleted after its run, the gateway's too; before, the gateway's downloads piled up in
its data directory while the others' were deleted, and only the gateway paid for fresh memory. The
gateway's RSS is sampled from /proc, so the sampling does not wake the gateway during the download.

The runs of this bench on 2026-12-03 after the worker's own HTTP client landed, quiet machine (load
0.5–2): four in a row at 13:34–13:39 with the warm-up round gave 0.91, 0.82, 0.85 and 0.86 × curl
(paired medians 0.80, 0.82, 0.83, 0.87 ×); before the warm-up round
existed, eight runs between 12:52 and 13:31 gave 0.74–0.89 × (three of eight at 0.8 × or more), each
with its first, cold run counted. On the machine this project moved to on 2026-12-04 (2 × Intel
Xeon, quiet) the same bench reads 0.51–0.59 × with that day's code and 0.53 × with the code before its
audit-log changes (7c3a188), so the drop came with the machine: \`curl -o\` runs at 1,281 MB/s there
(963 on the AMD machine), scigate at 650–700 MB/s (849) and the plain Node.js downloader at 385
(0.30 ×). Issue 12's ≥ 0.8 × is missed there; what would close the gap is not measured yet. Most of a run's
spread is one to three downloads of nine that take 0.45–0.9 s where the others take 0.25–0.35 s: the
whole transfer is slower in them, evenly, from the first MiB (timestamps every 32 MiB); they did not
occur in 14 back-to-back downloads through the same gateway with nothing in between, and neither
deleting files with \`sync\`, nor leaving out the forced GC, the plain Node.js or the verified curl
rows removed them.

Where the time goes (temporary timestamps in the gateway, the worker and the client; 4 downloads from a
separate file server at load 0.6, a warm worker; ms after the client sent the call): the artifact tool
starts at 2–4, the offered candidate is read at 2–4, the plan stored at 4–7, the authorization at 5–9,
the job row and the part file at 6–10, \`running\` persisted and the GET sent at 8–13, the head taken
2–3 later; the transfer takes 250–330; the body's end is followed by the digests and \`verifying\` in
1, the part file's commit (fsync of the last < 32 MiB, 0400, rename, directory fsync) in 6–9, and the
answer at the client 3–6 later: 276–355 in all. A first download also starts the worker (about 150).
Changing when the part file is fdatasync'ed (every 8, 16 or 64 MiB instead of 32), telling the hasher
every 4 MiB instead of every MiB, not reading the file back for the hasher or not hashing at all moved
the worker's time by less than its spread from run to run (alternating runs, 5 each, quiet machine).
The receiving alone (rawHttpGet.mjs writing to a file, no hashing, no fsync) takes 170–280 ms, as long
as \`curl -o\` (230–350 ms with its process start).

The limit: the ratio is a race between CPU-bound pipelines on 2 cores, and moves with the machine's
load more than with either side's code (the rounds above). curl receives and writes in C with one
buffer (about 200 ms of CPU per 200 MiB), hashes nothing and does not fsync; the file server's process
needs 120–190 ms more. scigate does the same receiving and writing and, besides, sha256
(120 ms, OpenSSL with the CPU's SHA instructions, on the hasher's thread), the read-back for the hasher
(about 30 ms) and the fdatasync's write-back (system time the curl row never pays). Doing the same work
with curl and OpenSSL one step after the other (the second row) is slower than scigate.
`;
}

/** Runs the scenario and appends its section to docs/benchmarks.md (replacing an earlier one). */
export async function appendDownloadBench(root: string): Promise<void> {
  const section = await runDownloadBench();
  process.stdout.write(section);
  const path = join(root, 'docs/benchmarks.md');
  const current = readFileSync(path, 'utf8').replace(/\n## Download: artifact_download[\s\S]*?(?=\n## (?!Download)|$)/, '');
  writeFileSync(path, `${current.trimEnd()}\n${section}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await appendDownloadBench(fileURLToPath(new URL('../../', import.meta.url)));
