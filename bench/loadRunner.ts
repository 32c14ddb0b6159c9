/** Runs load clients (bench/loadClient.ts), each in its own process, and gathers their latencies. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob } from './loadClient.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  errors: number;
}

/** Called when every client is connected and warm (just before the measured calls) and when all have made them. */
export interface LoadWindow {
  atStart(): Promise<void>;
  atEnd(): Promise<void>;
}

interface RunningClient {
  child: ChildProcess;
  /** Resolves on the client's `ready`, `finished` and `done` in turn. */
  next(type: 'ready' | 'finished' | 'done'): Promise<LoadResult>;
}

function startClient(job: LoadJob): RunningClient {
  const child = fork(here('./loadClient.js'), { stdio: 'inherit' });
  const waiting = new Map<string, { resolve: (m: LoadResult) => void; reject: (e: Error) => void }>();
  const seen = new Map<string, LoadResult>();
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const w of waiting.values()) w.reject(error);
  };
  child.on('message', (m: { type: string; message?: string } & LoadResult) => {
    if (m.type === 'failed') return failAll(new Error(m.message));
    seen.set(m.type, m);
    waiting.get(m.type)?.resolve(m);
  });
  child.once('exit', (code) => code !== 0 && failAll(new Error(`load client exited ${code}`)));
  child.send(job);
  return {
    child,
    next: (type) => {
      if (failure) return Promise.reject(failure);
      const already = seen.get(type);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => waiting.set(type, { resolve, reject }));
    },
  };
}

/**
 * Runs `clients` load processes at once; calls/s over the slowest one's wall time. With a `window`,
 * its hooks bracket the measured calls only: connecting, Session set-up, warm-up calls and closing
 * stay outside it.
 */
export async function loadParallel(job: LoadJob, clients: number, window?: LoadWindow) {
  const running = Array.from({ length: clients }, () => startClient(job));
  await Promise.all(running.map((c) => c.next('ready')));
  await window?.atStart();
  for (const c of running) c.child.send({ type: 'go' });
  await Promise.all(running.map((c) => c.next('finished')));
  await window?.atEnd();
  const results = await Promise.all(running.map((c) => c.next('done')));
  const calls = results.reduce((n, r) => n + r.latenciesMs.length, 0);
  const errors = results.reduce((n, r) => n + r.errors, 0);
  if (errors > 0) throw new Error(`${errors} calls failed during ${job.tool}`);
  return { latenciesMs: results.flatMap((r) => r.latenciesMs), callsPerSecond: calls / (Math.max(...results.map((r) => r.wallMs)) / 1000), calls };
}
