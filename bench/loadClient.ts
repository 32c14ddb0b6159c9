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
  /** Through scigate: the admin API that sets this client's Session to always_allow before the first call. */
  allowAll?: { apiUrl: string; token: string };
}

/** Finds this client's Session by its unique client name and lets its dangerous calls run without a human. */
async function allowAll(admin: { apiUrl: string; token: string }, clientName: string): Promise<void> {
  const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
  for (let attempt = 0; attempt < 600; attempt++) {
    const { sessions } = (await (await fetch(`${admin.apiUrl}/sessions`, { headers })).json()) as { sessions: Array<{ id: string; clientName: string | null }> };
    const session = sessions.find((s) => s.clientName === clientName);
    if (session) {
      const patched = await fetch(`${admin.apiUrl}/sessions/${session.id}`, { method: 'PATCH', headers, body: JSON.stringify({ approvalMode: 'always_allow' }) });
      if (!patched.ok) throw new Error(`could not set always_allow: HTTP ${patched.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no Session for ${clientName} after 60 s`);
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
  const tag = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const client = new Client({ name: `bench-${tag}`, version: '1.0.0' });
  await client.connect(transportFor(job));
  if (job.allowAll) await allowAll(job.allowAll, `bench-${tag}`);
  const argsFor = (i: number) => ({ [job.argName]: job.args === 'same' ? 'same' : `${tag}-${i}` });
  for (let i = 0; i < job.warmup; i++) await client.callTool({ name: job.tool, arguments: argsFor(-1 - i) });
  // Connected and warm: the runner starts every client's calls at once (and reads CPU) on "go".
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    process.send!({ type: 'ready' });
  });
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
  process.send!({ type: 'finished' });
  await client.close();
  return { latenciesMs, wallMs, errors };
}

process.once('message', (job: LoadJob) => {
  void run(job).then(
    (result) => process.send!({ type: 'done', ...result }, undefined, {}, () => process.exit(0)),
    (error: unknown) => process.send!({ type: 'failed', message: String(error) }, undefined, {}, () => process.exit(1)),
  );
});
