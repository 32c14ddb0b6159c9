import { describe, expect, it, vi } from 'vitest';
import { SessionOpenings } from '../../../gateway/listener/sessionOpenings.js';

const REASON = 'stopping';

/** A session stand-in that records its closes. */
const session = () => ({ close: vi.fn(async (_reason?: string) => {}) });
type FakeSession = ReturnType<typeof session>;

/** A session whose opening the test finishes with `resolve`. */
function pendingOpening() {
  let resolve!: (s: FakeSession) => void;
  const opening = new Promise<FakeSession>((r) => (resolve = r));
  return { opening, resolve };
}

describe('SessionOpenings', () => {
  it('hands a session opened before any stop to `use`, and leaves it open', async () => {
    const openings = new SessionOpenings<FakeSession>(new AbortController().signal, REASON);
    const opened = session();
    const use = vi.fn(async () => {});
    await expect(openings.open(Promise.resolve(opened), use)).resolves.toBe(true);
    expect(use).toHaveBeenCalledWith(opened);
    expect(opened.close).not.toHaveBeenCalled();
  });

  it('answers false at once when the stop comes first, then closes the session once it exists; settled waits for that', async () => {
    const stop = new AbortController();
    const openings = new SessionOpenings<FakeSession>(stop.signal, REASON);
    const { opening, resolve } = pendingOpening();
    const use = vi.fn(async () => {});
    const joined = openings.open(opening, use);
    stop.abort();
    await expect(joined).resolves.toBe(false);

    const settled = openings.settled(60_000);
    const late = session();
    resolve(late);
    await settled;
    expect(late.close).toHaveBeenCalledWith(REASON);
    expect(use).not.toHaveBeenCalled();
  });

  it('closes a session that opened before the stop but resumed after it, without handing it on', async () => {
    const stop = new AbortController();
    const openings = new SessionOpenings<FakeSession>(stop.signal, REASON);
    const opened = session();
    const use = vi.fn(async () => {});
    const joined = openings.open(Promise.resolve(opened), use);
    // One turn later the opening has settled (and was seen open), but `open` has not resumed yet.
    await null;
    stop.abort();
    await expect(joined).resolves.toBe(false);
    expect(opened.close).toHaveBeenCalledOnce();
    expect(opened.close).toHaveBeenCalledWith(REASON);
    expect(use).not.toHaveBeenCalled();
  });

  it('passes on a failed opening to its caller, and settled does not wait for it', async () => {
    const stop = new AbortController();
    const openings = new SessionOpenings<FakeSession>(stop.signal, REASON);
    await expect(openings.open(Promise.reject(new Error('no server')), async () => {})).rejects.toThrow('no server');
    stop.abort();
    await openings.settled(60_000);
  });
});
