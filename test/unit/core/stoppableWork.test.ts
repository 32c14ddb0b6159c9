import { describe, expect, it } from 'vitest';
import { StoppableWork } from '../../../gateway/core/index.js';

/** A piece of work that ends only when its signal aborts, then takes one more turn to clean up. */
const untilAborted = (signal: AbortSignal, log: string[]) =>
  new Promise<string>((_resolve, reject) => {
    signal.addEventListener('abort', () => setImmediate(() => {
      log.push('cleaned up');
      reject(signal.reason);
    }));
  });

describe('StoppableWork', () => {
  it('aborts running work with the stop reason and resolves only after it settled (work no caller can cancel included)', async () => {
    const work = new StoppableWork();
    const log: string[] = [];
    const running = work.run(undefined, (signal) => untilAborted(signal, log));
    const reason = new Error('the gateway is stopping');
    await work.stop(reason);
    expect(log).toEqual(['cleaned up']);
    await expect(running).rejects.toBe(reason);
    expect(work.stopped).toBe(true);
  });

  it("the caller's own signal still aborts its piece; the stop waits for a piece that ignores its signal, and refuses new ones", async () => {
    const work = new StoppableWork();
    const caller = new AbortController();
    const log: string[] = [];
    const mine = work.run(caller.signal, (signal) => untilAborted(signal, log));
    caller.abort(new Error('cancelled by the client'));
    await expect(mine).rejects.toThrow('cancelled by the client');
    expect(work.stopped).toBe(false);

    let finish!: () => void;
    const stubborn = work.run(new AbortController().signal, () => new Promise<void>((resolve) => (finish = resolve)));
    let stopped = false;
    const reason = new Error('stop');
    const stopping = work.stop(reason).then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await expect(work.run(new AbortController().signal, async () => 'started')).rejects.toBe(reason);
    finish();
    await Promise.all([stubborn, stopping]);
    expect(stopped).toBe(true);
  });
});
