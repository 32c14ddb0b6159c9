import { describe, expect, it, vi } from 'vitest';
import { CallDeadline, GatewayError } from '../../../gateway/core/index.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

const timeout = () => new GatewayError('upstream_timeout', 'too slow', { retryable: true });
/** Lets the timer's loop react to what just happened (it runs on promises, not on real time). */
const settle = () => new Promise((r) => setImmediate(r));

describe('CallDeadline', () => {
  it('a timer expires after its time when nothing holds the deadline', async () => {
    const clock = new FakeClock();
    const timer = new CallDeadline(clock).timer(60_000, timeout);
    clock.advance(59_999);
    await settle();
    expect(timer.signal.aborted).toBe(false);
    clock.advance(1);
    await settle();
    expect(timer.signal.aborted).toBe(true);
    expect(timer.signal.reason).toMatchObject({ code: 'upstream_timeout' });
  });

  it("a timer given the call's signal aborts with its reason when the call is cancelled, and lets go of it once disposed", async () => {
    const clock = new FakeClock();
    const call = new AbortController();
    const timer = new CallDeadline(clock).timer(60_000, timeout, call.signal);
    call.abort(new GatewayError('cancelled', 'the agent cancelled'));
    expect(timer.signal.aborted).toBe(true);
    expect(timer.signal.reason).toMatchObject({ code: 'cancelled', message: 'the agent cancelled' });

    const later = new AbortController();
    const disposed = new CallDeadline(clock).timer(60_000, timeout, later.signal);
    disposed.dispose();
    later.abort();
    expect(disposed.signal.aborted).toBe(false);
    const already = new CallDeadline(clock).timer(60_000, timeout, AbortSignal.abort('gone'));
    expect(already.signal.reason).toBe('gone');
  });

  it('an external wait pauses the timer: 10 minutes held are not charged, the time left is kept', async () => {
    const clock = new FakeClock();
    const deadline = new CallDeadline(clock);
    const timer = deadline.timer(60_000, timeout);
    clock.advance(20_000);
    await settle();
    const release = deadline.beginExternalWait();
    await settle();
    clock.advance(10 * 60_000);
    await settle();
    expect(timer.signal.aborted).toBe(false);
    expect(deadline.heldMs()).toBe(10 * 60_000);
    release();
    await settle();
    clock.advance(39_999);
    await settle();
    expect(timer.signal.aborted).toBe(false);
    expect(deadline.chargedMs()).toBe(59_999);
    clock.advance(1);
    await settle();
    expect(timer.signal.aborted).toBe(true);
  });

  it('holds nest, and releasing one twice does not end another', async () => {
    const clock = new FakeClock();
    const deadline = new CallDeadline(clock);
    const first = deadline.beginExternalWait();
    const second = deadline.beginExternalWait();
    first();
    first();
    expect(deadline.held).toBe(true);
    clock.advance(5_000);
    second();
    expect(deadline.held).toBe(false);
    expect(deadline.heldMs()).toBe(5_000);
    expect(deadline.chargedMs()).toBe(0);
  });

  it('whenReleased waits for the last hold to end and can be cancelled', async () => {
    const clock = new FakeClock();
    const deadline = new CallDeadline(clock);
    await deadline.whenReleased();
    const release = deadline.beginExternalWait();
    let released = false;
    const waiting = deadline.whenReleased().then(() => (released = true));
    await settle();
    expect(released).toBe(false);
    release();
    await waiting;
    expect(released).toBe(true);

    deadline.beginExternalWait();
    const cancel = new AbortController();
    const cancelled = deadline.whenReleased(cancel.signal);
    cancel.abort(new GatewayError('cancelled', 'bye'));
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('a disposed timer never fires', async () => {
    const clock = new FakeClock();
    const timer = new CallDeadline(clock).timer(1_000, timeout);
    timer.dispose();
    await settle();
    clock.advance(5_000);
    await settle();
    expect(timer.signal.aborted).toBe(false);
  });

  it('arming and disposing a timer with no hold builds no AbortSignal.any (every tool call arms one)', async () => {
    const clock = new FakeClock();
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const timer = new CallDeadline(clock).timer(1_000, timeout);
      await settle();
      timer.dispose();
      await settle();
      expect(any).not.toHaveBeenCalled();
      expect(timer.signal.aborted).toBe(false);
    } finally {
      any.mockRestore();
    }
  });
});
