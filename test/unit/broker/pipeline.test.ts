import { describe, expect, it } from 'vitest';
import {
  PIPELINE, compose, withAudit, withNativeTools, withCache, withLimit, withNormalize, withPermission, withResolve, withRetry, withSizeLimit,
  withValidation, type Stage,
} from '../../../gateway/broker/index.js';
import { newResolvedCall, rawOf } from '../../fixtures/brokerDoubles.js';

describe('the broker pipeline', () => {
  it('runs these stage functions in the order of house style §2, outermost first', () => {
    // Pinned by identity, not by name: swapping two stages (or wrapping one under another's name) fails here.
    expect([...PIPELINE]).toEqual([
      withAudit, withNativeTools, withResolve, withValidation, withPermission, withCache, withRetry, withLimit, withSizeLimit, withNormalize,
    ]);
    expect(PIPELINE.map((stage) => stage.name)).toEqual([
      'withAudit', 'withNativeTools', 'withResolve', 'withValidation', 'withPermission', 'withCache', 'withRetry', 'withLimit', 'withSizeLimit', 'withNormalize',
    ]);
  });

  it('compose makes the first stage outermost', async () => {
    const order: string[] = [];
    const tag =
      (name: string): Stage =>
      (next) =>
      async (call) => {
        order.push(`${name}>`);
        const out = await next(call);
        order.push(`<${name}`);
        return out;
      };
    await compose([tag('a'), tag('b')], async () => ({ raw: rawOf({}) }))(newResolvedCall());
    expect(order).toEqual(['a>', 'b>', '<b', '<a']);
  });
});
