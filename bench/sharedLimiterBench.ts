/**
 * `node dist/bench/sharedLimiterBench.js`: what holding the source limits in Redis costs against
 * the in-process ClockLimiter, side by side in one run on one redis-server (loopback): the latency
 * of one uncontended slot (acquire + release) and the slots/s of 16 callers on a concurrency-4
 * limiter. Prints a Markdown section for docs/benchmarks.md.
 */
import { execSync } from 'node:child_process';
import { ClockLimiter, silentLogger, systemClock, type SlotLimiter } from '../gateway/core/index.js';
import { RedisLimiter, RedisSubscriber, connectRedis, limiterScripts } from '../storage/redis/index.js';
import { startTestRedis } from '../test/fixtures/redis.js';
import { percentile, round } from './stats.js';

const SEQUENTIAL = 500;
const CONTENDED = 2000;
const CALLERS = 16;
const never = () => new AbortController().signal;

async function sequentialMs(limiter: SlotLimiter): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    (await limiter.acquire(never()))();
    took.push(performance.now() - start);
  }
  return took;
}

async function slotsPerSecond(limiter: SlotLimiter): Promise<number> {
  let left = CONTENDED;
  const start = performance.now();
  await Promise.all(Array.from({ length: CALLERS }, async () => {
    while (left-- > 0) {
      const release = await limiter.acquire(never());
      await new Promise((resolve) => setImmediate(resolve));
      release();
    }
  }));
  return CONTENDED / ((performance.now() - start) / 1000);
}

async function main(): Promise<void> {
  const redis = await startTestRedis();
  const client = await connectRedis(redis.url, silentLogger, 'bench');
  const subscriber = await RedisSubscriber.open(client, silentLogger);
  const deps = { scripts: limiterScripts(client), subscriber, clock: systemClock, log: silentLogger };
  const limiters = {
    ClockLimiter: () => new ClockLimiter({ concurrency: 4, minTimeMs: 0 }, systemClock),
    RedisLimiter: () => new RedisLimiter(`bench-${Date.now()}-${Math.random()}`, { concurrency: 4, minTimeMs: 0 }, deps),
  };
  const rows: string[] = [];
  // Alternate, warm each first: the machine is shared, so side by side beats one after the other.
  for (const make of Object.values(limiters)) await sequentialMs(make());
  for (const [name, make] of Object.entries(limiters)) {
    const took = await sequentialMs(make());
    const rate = await slotsPerSecond(make());
    rows.push(`| ${name} | ${round(percentile(took, 50), 3)} | ${round(percentile(took, 95), 3)} | ${Math.round(rate)} |`);
  }
  subscriber.close();
  client.disconnect();
  await redis.stop();
  const load = execSync('uptime').toString().trim();
  process.stdout.write(
    `| limiter | one slot p50 (ms) | p95 (ms) | slots/s, ${CALLERS} callers, concurrency 4 |\n|---|---|---|---|\n${rows.join('\n')}\n\nLoad while measuring: \`${load}\`\n`,
  );
}

await main();
