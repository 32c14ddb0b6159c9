import { describe, expect, it } from 'vitest';
import { EVICTION_GRACE_MS, LiveSessions } from '../../../gateway/listener/liveSessions.js';
import type { NodeStreamableTransport } from '../../../gateway/listener/nodeStreamableTransport.js';
import { FakeClock } from '../../fixtures/brokerDoubles.js';

/** A transport stand-in: LiveSessions only stores and returns it. */
const transport = (name: string) => ({ name }) as unknown as NodeStreamableTransport;

function liveSessions(maxSessions: number) {
  const clock = new FakeClock();
  return { clock, live: new LiveSessions({ idleTimeoutMs: 3_600_000, maxSessions }, clock) };
}

describe('LiveSessions reservations', () => {
  it('a session being opened takes its place under the cap before it joins', () => {
    const { live } = liveSessions(2);
    expect(live.reserve()).toBeDefined();
    expect(live.reserve()).toBeDefined();
    expect(live.full).toBe(true);
    expect(live.reserve()).toBeUndefined();
    expect(live.size).toBe(0);
  });

  it('a reservation given back (the opening failed) frees its place, once however often it is released', () => {
    const { live } = liveSessions(2);
    const failed = live.reserve()!;
    live.reserve();
    failed.release();
    failed.release();
    expect(live.full).toBe(false);
    expect(live.reserve()).toBeDefined();
    expect(live.reserve()).toBeUndefined();
  });

  it('a reservation that turns into a session is counted once', () => {
    const { live } = liveSessions(2);
    const opening = live.reserve()!;
    opening.release();
    live.add('ses_a', transport('a'));
    expect(live.reserve()).toBeDefined();
    expect(live.reserve()).toBeUndefined();
  });

  it('at the cap reached by openings, an idle session past the grace is the one to evict, one idle for less is not', () => {
    const { clock, live } = liveSessions(2);
    const idle = transport('idle');
    live.add('ses_idle', idle);
    live.reserve();
    expect(live.evictionCandidate()).toBeUndefined();
    clock.advance(EVICTION_GRACE_MS);
    expect(live.evictionCandidate()).toBe(idle);
  });
});
