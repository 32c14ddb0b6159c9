import { describe, expect, it } from 'vitest';
import { assertValid, compileInputSchema, compileOnFirstUse } from '../../../gateway/registry/index.js';

const schema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false };

describe('compileOnFirstUse (built-in and native tools compile their schemas when first called)', () => {
  it('validates exactly like the eagerly compiled schema, errors included', () => {
    const lazy = compileOnFirstUse(schema);
    const eager = compileInputSchema(schema);
    for (const args of [{ query: 'x' }, {}, { query: 1 }, { query: 'x', extra: true }]) {
      expect(lazy(args)).toBe(eager(args));
      expect(lazy.errors ?? null).toEqual(eager.errors ?? null);
    }
    expect(() => assertValid(lazy, {})).toThrow('Missing required field "query".');
  });

  it('does not compile before the first validation', () => {
    const broken = { type: 'object', properties: { n: { type: 'no-such-type' } } };
    expect(() => compileInputSchema(broken)).toThrow();
    const lazy = compileOnFirstUse(broken);
    expect(() => lazy({ n: 1 })).toThrow();
  });
});
