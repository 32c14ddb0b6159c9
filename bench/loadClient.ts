/** Child process: an SDK client that makes a bounded number of tool calls and reports their latencies. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { abortIsolatingFetch } from '../gateway/upstream/index.js';

export interface LoadJob {
  target: { kind: 'http'; url: string; token?: string } | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> };
  tool: string;
  /** `same` repeats identical arguments (cache hits); `distinct` varies them. */
  args: 'same' | 'distinct';
  argName: 'text' | 'query';
  calls: number;
  concurrency: number;
  warmup: number;
}

function transportFor(job: LoadJob): Transport {
  if (job.target.kind === 'stdio') {
    return new StdioClientTransport({ command: job.target.command, args: job.target.args, env: job.target.env, stderr: 'ignore' });
  }
  const headers: Record<string, string> = job.target.token ? { authorization: `Bearer ${job.target.token}` } : {};
  // The same per-request signal isolation the gateway uses upstream, so the client does not leak either.
  return new StreamableHTTPClientTransport(new URL(job.target.url), { requestInit: { headers }, fetch: abortIsolatingFetch() });
}

async function run(job: LoadJob): Promise<{ latenciesMs: number[]; wallMs: number; errors: number }> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transportFor(job));
  const tag = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const argsFor = (i: number) => ({ [job.argName]: job.args === 'same' ? 'same' : `${tag}-${i}` });
  for (let i = 0; i < job.warmup; i++) await client.callTool({ name: job.tool, arguments: argsFor(-1 - i) });
  const latenciesMs: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < job.calls) {
      const i = next++;
      const t0 = performance.now();
      const result = await client.callTool({ name: job.tool, arguments: argsFor(i) });
      latenciesMs.push(performance.now() - t0);
      if (result.isError) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const wallMs = performance.now() - started;
  await client.close();
  return { latenciesMs, wallMs, errors };
}

process.on('message', (job: LoadJob) => {
  void run(job).then(
    (result) => process.send!({ type: 'done', ...result }, undefined, {}, () => process.exit(0)),
    (error: unknown) => process.send!({ type: 'failed', message: String(error) }, undefined, {}, () => process.exit(1)),
  );
});
