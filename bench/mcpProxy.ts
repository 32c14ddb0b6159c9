/**
 * mcp-proxy (npm, devDependency) in front of the stdio echo server: the ungoverned proxy the gateway
 * is compared with; and the bare relay, the floor any relay of that server could reach.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/fixtures/freePort.js';

const require = createRequire(import.meta.url);
const PROXY_BIN = join(dirname(require.resolve('mcp-proxy/package.json')), 'dist', 'bin', 'mcp-proxy.mjs');

export interface RunningProxy {
  url: string;
  pid: number;
  stop(): void;
}


/** Starts `mcp-proxy --server stream` with its defaults, running `upstream` over stdio; resolves once it answers HTTP. */
export async function startMcpProxy(upstream: { command: string; args: string[] }): Promise<RunningProxy> {
  const port = await freePort();
  return startRelay('mcp-proxy', port, [PROXY_BIN, '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', upstream.command, ...upstream.args]);
}

/** Starts bench/bareRelay.ts (the floor: node:http and a pipe) in front of `upstream`; resolves once it answers HTTP. */
export async function startBareRelay(upstream: { command: string; args: string[] }): Promise<RunningProxy> {
  const port = await freePort();
  return startRelay('the bare relay', port, [fileURLToPath(new URL('./bareRelay.js', import.meta.url)), String(port), upstream.command, ...upstream.args]);
}

async function startRelay(name: string, port: number, args: string[]): Promise<RunningProxy> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    const answered = await fetch(url, { method: 'GET' }).then(() => true, () => false);
    if (answered) break;
    if (attempt > 600) throw new Error(`${name} did not listen within 60 s`);
    await sleep(100);
  }
  return { url, pid: child.pid!, stop: () => child.kill() };
}
