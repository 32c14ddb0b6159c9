/** Runs load clients (bench/loadClient.ts), each in its own process, and gathers their latencies. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob } from './loadClient.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  errors: number;
}

function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(here('./loadClient.js'), { stdio: 'inherit' });
    child.once('message', (m: { type: string; message?: string } & LoadResult) =>
      m.type === 'done' ? resolve(m) : reject(new Error(m.message)),
    );
    child.once('exit', (code) => code !== 0 && reject(new Error(`load client exited ${code}`)));
    child.send(job);
  });
}

/** Runs `clients` load processes at once; calls/s over the slowest one's wall time. */
export async function loadParallel(job: LoadJob, clients: number) {
  const results = await Promise.all(Array.from({ length: clients }, () => load(job)));
  const calls = results.reduce((n, r) => n + r.latenciesMs.length, 0);
  const errors = results.reduce((n, r) => n + r.errors, 0);
  if (errors > 0) throw new Error(`${errors} calls failed during ${job.tool}`);
  return { latenciesMs: results.flatMap((r) => r.latenciesMs), callsPerSecond: calls / (Math.max(...results.map((r) => r.wallMs)) / 1000), calls };
}
