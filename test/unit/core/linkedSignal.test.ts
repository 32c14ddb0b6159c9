import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { linkSignals } from '../../../gateway/core/index.js';

describe('linkSignals', () => {
  it('aborts with the reason of the first source that aborts', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkSignals([a.signal, b.signal]);
    b.abort('second');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('second');
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no listener on its sources once released (unlike AbortSignal.any, which Node keeps alive)', () => {
    const longLived = new AbortController();
    for (let i = 0; i < 100; i++) {
      const linked = linkSignals([longLived.signal, new AbortController().signal]);
      linked.signal.addEventListener('abort', () => {});
      linked.release();
    }
    expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(0);
    expect(longLived.signal.aborted).toBe(false);
  });

  it('is aborted at once when a source already is', () => {
    const done = new AbortController();
    done.abort('early');
    expect(linkSignals([new AbortController().signal, done.signal]).signal.reason).toBe('early');
  });
});
