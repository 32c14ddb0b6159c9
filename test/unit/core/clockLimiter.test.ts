import { describe, expect, it } from 'vitest';
import { ClockLimiter } from '../../../gateway/core/index.js';
import { FakeClock, sleeperRegistered } from '../../fixtures/brokerDoubles.js';

const never = () => new AbortController().signal;

describe('ClockLimiter', () => {
  it('holds at most `concurrency` slots and grants the next waiter, first come first served, on release', async () => {
    const limiter = new ClockLimiter({ concurrency: 2, minTimeMs: 0 }, new FakeClock());
    const a = await limiter.acquire(never());
    await limiter.acquire(never());
    const order: string[] = [];
    const c = limiter.acquire(never()).then((release) => (order.push('c'), release));
    const d = limiter.acquire(never()).then((release) => (order.push('d'), release));
    expect([limiter.runningCount, limiter.queuedCount, limiter.hasIdleSlot]).toEqual([2, 2, false]);
    a();
    (await c)();
    await d;
    expect(order).toEqual(['c', 'd']);
  });

  it('tryAcquire takes a free slot at once, and never one a queued waiter or the spacing is owed', async () => {
    const clock = new FakeClock();
    const limiter = new ClockLimiter({ concurrency: 1, minTimeMs: 0 }, clock);
    const first = limiter.tryAcquire()!;
    expect([limiter.runningCount, limiter.tryAcquire()]).toEqual([1, undefined]);
    const queued = limiter.acquire(never());
    first();
    (await queued)();
    expect(limiter.runningCount).toBe(0);

    const spaced = new ClockLimiter({ concurrency: 5, minTimeMs: 1000 }, clock);
    spaced.tryAcquire()!();
    expect(spaced.tryAcquire()).toBeUndefined();
    clock.advance(1000);
    expect(spaced.tryAcquire()).toBeTypeOf('function');
  });

  it('spaces grants by minTimeMs on the injected clock', async () => {
    const clock = new FakeClock();
    const limiter = new ClockLimiter({ concurrency: 5, minTimeMs: 1000 }, clock);
    (await limiter.acquire(never()))();
    let second = false;
    const next = limiter.acquire(never()).then(() => (second = true));
    expect(await sleeperRegistered(clock, (ms) => ms === 1000)).toBe(1000);
    clock.advance(999);
    await Promise.resolve();
    expect(second).toBe(false);
    clock.advance(1);
    await next;
    expect(second).toBe(true);
  });

  it('a waiter that gives up leaves the queue at once and never takes a slot', async () => {
    const limiter = new ClockLimiter({ concurrency: 1, minTimeMs: 0 }, new FakeClock());
    const release = await limiter.acquire(never());
    const giveUp = new AbortController();
    const waiting = limiter.acquire(giveUp.signal);
    giveUp.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(limiter.queuedCount).toBe(0);
    release();
    expect(limiter.hasIdleSlot).toBe(true);
  });

  it('reconfigure: a raised concurrency grants queued waiters at once, a lowered one waits for releases', async () => {
    const limiter = new ClockLimiter({ concurrency: 1, minTimeMs: 0 }, new FakeClock());
    const first = await limiter.acquire(never());
    const queued = [limiter.acquire(never()), limiter.acquire(never())];
    expect([limiter.runningCount, limiter.queuedCount]).toEqual([1, 2]);
    expect(limiter.hasOptions({ concurrency: 3, minTimeMs: 0 })).toBe(false);
    limiter.reconfigure({ concurrency: 3, minTimeMs: 0 });
    const [second, third] = await Promise.all(queued);
    expect([limiter.runningCount, limiter.queuedCount]).toEqual([3, 0]);
    limiter.reconfigure({ concurrency: 1, minTimeMs: 0 });
    let fourth = false;
    const next = limiter.acquire(never()).then((release) => ((fourth = true), release));
    first();
    second!();
    await Promise.resolve();
    expect(fourth).toBe(false);
    third!();
    (await next)();
    expect(fourth).toBe(true);
    expect(() => limiter.reconfigure({ concurrency: 0, minTimeMs: 0 })).toThrow(/concurrency/);
  });

  it('refuses a bad option by name', () => {
    expect(() => new ClockLimiter({ concurrency: 0, minTimeMs: 0 }, new FakeClock())).toThrow(/concurrency/);
  });
});
