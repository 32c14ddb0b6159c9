import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../gateway/core/index.js';
import { SourceRegistry } from '../../../gateway/registry/index.js';
import { compose, pipelineStages, type Stage } from '../../../gateway/broker/index.js';
import { FakeClock, MemoryCas, MemoryInvocations, newToolCall, rawOf } from '../../fixtures/brokerDoubles.js';

describe('the broker pipeline', () => {
  it('runs its stages in the order of house style §2, outermost first', () => {
    const clock = new FakeClock();
    const registry = new SourceRegistry({ toolPrefix: 'mcp', log: silentLogger, clock });
    const names = pipelineStages({ registry, invocations: new MemoryInvocations(), cas: new MemoryCas(), clock, log: silentLogger }).map(([n]) => n);
    expect(names).toEqual([
      'withAudit',
      'withResolve',
      'withValidation',
      'withPermission',
      'withCache',
      'withRetry',
      'withLimit',
      'withSizeLimit',
      'withNormalize',
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
    await compose([tag('a'), tag('b')], async () => ({ raw: rawOf({}) }))(newToolCall());
    expect(order).toEqual(['a>', 'b>', '<b', '<a']);
  });
});
