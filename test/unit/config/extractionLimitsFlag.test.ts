import { describe, expect, it } from 'vitest';
import { extractionLimitsFlag } from '../../../gateway/commands/wiring.js';
import type { FlagValues } from '../../../gateway/config/index.js';

const flag = (json: string) => extractionLimitsFlag({ extractionLimits: json } as unknown as FlagValues);

describe('--extraction-limits', () => {
  it('takes any of maxBytes, maxPages, maxHeapMb, timeoutMs; unset ones keep their defaults', () => {
    expect(flag('{}')).toEqual({});
    expect(flag('{"maxPages":50,"timeoutMs":5000}')).toEqual({ maxPages: 50, timeoutMs: 5000 });
  });

  it('refuses unknown names, non-objects and values that are not positive integers, naming the flag', () => {
    expect(() => flag('{"pages":5}')).toThrow(/--extraction-limits.*unknown: pages/);
    expect(() => flag('[1]')).toThrow(/--extraction-limits/);
    expect(() => flag('{"maxPages":0}')).toThrow(/maxPages must be a positive integer/);
    expect(() => flag('{"maxHeapMb":"big"}')).toThrow(/maxHeapMb/);
  });
});
