import { describe, expect, it, vi } from 'vitest';
import { SourceLimiters, withLimit } from '../../../gateway/broker/index.js';
import { GatewayError, QueueFull, silentLogger, type SlotLimiter } from '../../../gateway/core/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import { FakeClock, arxivResult, manifest, newResolvedCall, rawOf } from '../../fixtures/brokerDoubles.js';

/** A limiter whose acquire does what `acquire` says (a shared limiter's answers, without Redis). */
function limiterThat(acquire: SlotLimiter['acquire']): SlotLimiter {
  return { acquire, hasOptions: () => true, reconfigure: () => {}, runningCount: 0, queuedCount: 0 };
}

function stageOver(limiter: SlotLimiter) {
  const clock = new FakeClock();
  const next = vi.fn(async () => ({ raw: rawOf(arxivResult()), result: arxivResult(), sizeBytes: 10 }));
  const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
  const stage = withLimit({ limiters: new SourceLimiters(clock, () => limiter), clock, registry })(next);
  return { stage, next };
}

describe('withLimit over a limiter shared by replicas', () => {
  it('passes the result through once a slot is granted, asking with the manifest queue depth, and releases it', async () => {
    const release = vi.fn();
    const acquire = vi.fn(async () => release);
    const { stage, next } = stageOver(limiterThat(acquire));
    const call = newResolvedCall();
    expect((await stage(call)).sizeBytes).toBe(10);
    expect(acquire).toHaveBeenCalledWith(expect.any(AbortSignal), { queueDepth: call.manifest.limits.queueDepth });
    expect(next).toHaveBeenCalledOnce();
    expect(release).toHaveBeenCalledOnce();
  });

  it('a full queue (every replica counted) is queue_full, retryable, and the upstream is not called', async () => {
    const { stage, next } = stageOver(limiterThat(async () => Promise.reject(new QueueFull(8))));
    const error = (await stage(newResolvedCall()).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ code: 'queue_full', retryable: true });
    expect(error.message).toMatch(/has 8 calls queued already/);
    expect(next).not.toHaveBeenCalled();
  });

  it('with a queue depth of 0, queue_full says the source queues none rather than "0 calls queued already"', async () => {
    const { stage } = stageOver(limiterThat(async () => Promise.reject(new QueueFull(0))));
    const call = newResolvedCall();
    call.manifest.limits.queueDepth = 0;
    call.manifest.limits.concurrency = 2;
    const error = (await stage(call).catch((e: unknown) => e)) as GatewayError;
    expect(error.message).toMatch(/ is running 2 calls and queues none; try again shortly\.$/);
  });

  it("the shared engine's own error (Redis not answering) reaches the caller as it is, not as queue_timeout", async () => {
    const down = new GatewayError('storage_unavailable', 'Redis did not answer for the limit:arxiv limiter; try again shortly.', { retryable: true });
    const { stage, next } = stageOver(limiterThat(async () => Promise.reject(down)));
    expect(await stage(newResolvedCall()).catch((e: unknown) => e)).toBe(down);
    expect(next).not.toHaveBeenCalled();
  });
});

describe('withLimit after an edit of the limits', () => {
  it("enforces the source's limits now, not those of a call resolved before the edit", async () => {
    const clock = new FakeClock();
    const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
    const limitedTo = (concurrency: number) => ({ ...manifest, limits: { ...manifest.limits, concurrency, minTimeMs: 0, queueDepth: 4 } });
    registry.add(limitedTo(1), newResolvedCall().client);
    let finish = () => {};
    const next = vi.fn(() => new Promise<{ raw: ReturnType<typeof rawOf> }>((resolve) => (finish = () => resolve({ raw: rawOf(arxivResult()) }))));
    const stage = withLimit({ limiters: new SourceLimiters(clock), clock, registry })(next);
    const first = stage(newResolvedCall({ manifest: limitedTo(1) }));
    // Resolved while the source still allowed 3 at once (say it waited for a human), it reaches the limiter now.
    const stale = stage(newResolvedCall({ manifest: limitedTo(3) }));
    await vi.waitFor(() => expect(next).toHaveBeenCalledOnce());
    await new Promise((resolve) => setImmediate(resolve));
    expect(next).toHaveBeenCalledOnce();
    finish();
    await first;
    await vi.waitFor(() => expect(next).toHaveBeenCalledTimes(2));
    finish();
    await stale;
  });
});
