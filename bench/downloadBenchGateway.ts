/** Child process: a gateway whose "files" source's candidates are mirrored to the bench's loopback file server. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from '../gateway/commands/serveCommand.js';
import { silentLogger } from '../gateway/core/index.js';
import { FILES_ORIGIN, filesSource } from '../test/fixtures/servers/filesSource.js';

const [fileOrigin, name, size, sha256] = process.argv.slice(2) as [string, string, string, string];
const source = filesSource();
// Random bytes: a data file (a "pdf" candidate must begin with %PDF-, or artifact_download refuses it).
source.offer(name, { kind: 'data', mediaType: 'application/octet-stream', sizeBytes: Number(size), checksum: { algorithm: 'sha256', value: sha256 } });
const dataDir = await mkdtemp(join(tmpdir(), 'scigate-dlbench-'));
const gateway = await startGateway({
  host: '127.0.0.1', port: 0, dataDir, isolateSources: false, toolPrefix: 'mcp', allowedHosts: [], env: {}, log: silentLogger,
  extraSources: [{ manifest: source.manifest, target: { kind: 'memory', createServer: source.createServer } }],
  downloadMirrors: { [FILES_ORIGIN]: fileOrigin },
});

process.on('message', (message: { type: string }) => {
  if (message.type === 'gc') (globalThis as { gc?: () => void }).gc?.();
  if (message.type === 'rss') process.send!({ type: 'rss', rss: process.memoryUsage.rss() });
  if (message.type === 'cpu') process.send!({ type: 'cpu', cpu: process.cpuUsage() });
  if (message.type === 'stop') void gateway.stop().then(() => process.exit(0));
});
process.send!({ type: 'ready', url: gateway.url, mcpUrl: gateway.mcpUrl, token: gateway.token, dataDir });
