/**
 * Child process: the gateway under measurement, in front of the stdio echo server twice — as a
 * custom server (concurrency raised to 16) and as the `bench` source (whose `echo_cached` tool has
 * a cache TTL). Reports its CPU time and RSS to the parent over IPC.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { writeHeapSnapshot } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../gateway/commands/serveCommand.js';
import pino from 'pino';
import type { Logger } from '../gateway/core/index.js';
import { builtinSources } from '../sources/index.js';
import { benchManifest } from './echoServer.js';

// A second argument, a postgres:// URL, puts the gateway on PostgreSQL instead of the embedded store;
// a third, a redis:// URL, shares its limiters, cache and events with the other replicas on that Redis.
const [arxivBaseUrl, store, redisUrl] = process.argv.slice(2);
const echoStdio = { command: process.execPath, args: [fileURLToPath(new URL('./echoStdio.js', import.meta.url))] };
const dataDir = await mkdtemp(join(tmpdir(), 'scigate-bench-'));
// Logging as `scigate serve` does it (pino at the default level, info), into a file of the data directory.
const log = pino({ level: 'info', base: { app: 'scigate' } }, pino.destination(join(dataDir, 'gateway.log'))) as unknown as Logger;
const gateway = await startGateway({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  ...(store ? { store } : {}),
  ...(redisUrl ? { redisUrl } : {}),
  isolateSources: false,
  toolPrefix: 'mcp',
  allowedHosts: [],
  sourceLimits: Object.fromEntries(builtinSources.map((s) => [s.manifest.id, { minTimeMs: 0, concurrency: 16, queueDepth: 256 }])),
  extraSources: [{ manifest: benchManifest, target: { kind: 'stdio', ...echoStdio } }],
  env: { SCIGATE_ARXIV_BASE_URL: arxivBaseUrl! },
  log,
});

/** The custom server an admin would add: the same echo program, its concurrency raised to 16. */
async function addCustomEcho(): Promise<string> {
  const response = await fetch(`${gateway.url}/api/mcp/servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench echo', transport: 'stdio', ...echoStdio, enabled: true, limits: { concurrency: 16, queueDepth: 256, queueTimeoutMs: 60_000 } }),
  });
  const { server } = (await response.json()) as { server?: { tools: Array<{ name: string; upstreamName: string }> } };
  const tool = server?.tools.find((t) => t.upstreamName === 'echo');
  if (!tool) throw new Error(`the custom echo server was not added (HTTP ${response.status})`);
  return tool.name;
}
const customTool = await addCustomEcho();

/** A CPU profile of just the calls between `profile-start` and `profile-stop` (start-up and discovery left out). */
const inspector = new Session();
async function profile(message: { type: string; path?: string }): Promise<void> {
  if (message.type === 'profile-start') {
    inspector.connect();
    await inspector.post('Profiler.enable');
    // At the default 1 ms a sample lands at nearly the same point of every ~1.5 ms call and the
    // profile shows that point, not the call; 53 us (a prime) samples the whole of it.
    await inspector.post('Profiler.setSamplingInterval', { interval: 53 });
    await inspector.post('Profiler.start');
  } else {
    const { profile } = await inspector.post('Profiler.stop');
    await writeFile(message.path!, JSON.stringify(profile));
    inspector.disconnect();
  }
  process.send!({ type: message.type });
}

process.on('message', (message: { type: string; path?: string }) => {
  if (message.type === 'profile-start' || message.type === 'profile-stop') void profile(message);
  // CPU is read without a collection: a forced full GC is not the calls' cost, and it shrinks the
  // heap V8 has sized for them, so the next seconds' calls pay for many more major GCs than they
  // would in a gateway nobody measures. Memory is read after one, for figures that do not depend on
  // when the last GC ran.
  if (message.type === 'cpu') process.send!({ type: 'cpu', cpu: process.cpuUsage() });
  if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ type: 'memory', rss: process.memoryUsage().rss, memory: process.memoryUsage() });
  }
  if (message.type === 'snapshot') process.send!({ type: 'snapshot', path: writeHeapSnapshot() });
  if (message.type === 'stop') void shutdown();
});
/** Stops the gateway and removes its data directory, whether the bench asked (`stop`), killed it or went away. */
let stopping: Promise<void> | undefined;
function shutdown(): Promise<void> {
  stopping ??= gateway
    .stop()
    .finally(() => rm(dataDir, { recursive: true, force: true }))
    .finally(() => process.exit(0));
  return stopping;
}
process.once('SIGTERM', () => void shutdown());
process.once('disconnect', () => void shutdown());
process.send!({ type: 'ready', url: gateway.url, mcpUrl: gateway.mcpUrl, token: gateway.token, dataDir, customTool });
