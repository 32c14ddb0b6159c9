import { describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { progressRelay } from '../../../gateway/listener/progressRelay.js';

const relayed = () => {
  const sent: Progress[] = [];
  return { sent, relay: progressRelay((p) => sent.push(p)) };
};

describe('progress as the client sees it always increases', () => {
  it("an upstream that starts at 0 after scigate's waiting beats is shifted past them, total too", () => {
    const { sent, relay } = relayed();
    relay({ progress: 0, message: 'Waiting for the user' }, 'gateway');
    relay({ progress: 1, message: 'Waiting for the user' }, 'gateway');
    for (const progress of [0, 1, 2]) relay({ progress, total: 2 }, 'upstream');
    expect(sent.map((p) => [p.progress, p.total])).toEqual([[0, undefined], [1, undefined], [2, 4], [3, 4], [4, 4]]);
  });

  it("scigate's own beats stop once the upstream reports; upstream values pass unchanged when they already increase", () => {
    const { sent, relay } = relayed();
    relay({ progress: 0 }, 'gateway');
    relay({ progress: 5, total: 10 }, 'upstream');
    relay({ progress: 1 }, 'gateway');
    relay({ progress: 6, total: 10 }, 'upstream');
    expect(sent.map((p) => p.progress)).toEqual([0, 5, 6]);
  });

  it('a value that would not increase (an upstream repeating itself, a retry starting over) is dropped', () => {
    const { sent, relay } = relayed();
    for (const progress of [1, 2, 2, 1, 3]) relay({ progress });
    expect(sent.map((p) => p.progress)).toEqual([1, 2, 3]);
  });
});
