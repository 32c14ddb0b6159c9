import { describe, expect, it } from 'vitest';
import { createRequestPacers } from '../../../gateway/core/index.js';
import { FakeClock, sleeperRegistered } from '../../fixtures/brokerDoubles.js';

describe('createRequestPacers', () => {
  it('pacers of one group share one spacing on the injected clock; another group is not held back', async () => {
    const clock = new FakeClock();
    const pacers = createRequestPacers(clock);
    const pubmed = pacers('ncbi', 334);
    const clinvar = pacers('ncbi', 334);
    const arxiv = pacers('arxiv', 3000);
    await pubmed();
    let second = false;
    const waiting = clinvar().then(() => (second = true));
    await arxiv();
    expect(await sleeperRegistered(clock, (ms) => ms === 334)).toBe(334);
    clock.advance(333);
    await Promise.resolve();
    expect(second).toBe(false);
    clock.advance(1);
    await waiting;
    expect(second).toBe(true);
  });

  it('a cancelled wait rejects with its reason and does not hold the group', async () => {
    const clock = new FakeClock();
    const pace = createRequestPacers(clock)('ncbi', 1000);
    await pace();
    const controller = new AbortController();
    const waiting = pace(controller.signal);
    controller.abort(new Error('cancelled by the client'));
    await expect(waiting).rejects.toThrow('cancelled by the client');
  });
});
