/** Child process: the gateway under measurement. Reports its CPU time and RSS to the parent over IPC. */
import { mkdtemp } from 'node:fs/promises';
import { writeHeapSnapshot } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../gateway/commands/serveCommand.js';
import { silentLogger } from '../gateway/core/index.js';
import { builtinSources } from '../sources/index.js';
import { benchManifest } from './echoServer.js';

// A third argument, a postgres:// URL, puts the gateway on PostgreSQL instead of the embedded store;
// a fourth, a redis:// URL, shares its limiters, cache and events with the other replicas on that Redis.
const [echoUrl, arxivBaseUrl, store, redisUrl] = process.argv.slice(2);
const dataDir = await mkdtemp(join(tmpdir(), 'scigate-bench-'));
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
  extraSources: [{ manifest: benchManifest, target: { kind: 'http', url: echoUrl! } }],
  env: { SCIGATE_ARXIV_BASE_URL: arxivBaseUrl! },
  log: silentLogger,
});

process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ type: 'stats', cpu: process.cpuUsage(), rss: process.memoryUsage().rss, memory: process.memoryUsage() });
  }
  if (message.type === 'snapshot') process.send!({ type: 'snapshot', path: writeHeapSnapshot() });
  if (message.type === 'stop') void gateway.stop().then(() => process.exit(0));
});
process.send!({ type: 'ready', mcpUrl: gateway.mcpUrl, token: gateway.token, dataDir });
