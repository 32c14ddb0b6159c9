import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayError, parseInput } from '../../../gateway/core/index.js';

const schema = z.discriminatedUnion('transport', [
  z.object({ transport: z.literal('stdio'), command: z.string() }),
  z.object({ transport: z.literal('http'), url: z.string() }),
]);
const refusal = (input: unknown) => {
  try {
    parseInput(schema, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('accepted');
};

describe('parseInput', () => {
  it('tells input that is not a JSON object so, instead of the first field\'s complaint', () => {
    expect(refusal([1, 2])).toMatchObject({ code: 'invalid_input', message: 'Expected a JSON object, got an array.' });
    expect(refusal('stdio').message).toBe('Expected a JSON object, got a string.');
    expect(refusal(null).message).toBe('Expected a JSON object, got null.');
  });

  it('names the field of an object that fails, and words a failure of the whole object as its rule says', () => {
    expect(refusal({ transport: 'stdio', command: 5 })).toMatchObject({ message: expect.stringMatching(/^command: /), details: { field: 'command' } });
    const either = z.object({ a: z.number().optional(), b: z.number().optional() }).refine((v) => v.a !== undefined || v.b !== undefined, 'Send a or b.');
    expect(() => parseInput(either, {})).toThrow(/^Send a or b\.$/);
  });
});
