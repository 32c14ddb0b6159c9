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

  it('a top-level choice of one field among several says so, eager or lazy, whichever is wrong', () => {
    const either = { type: 'object', properties: { artifactJobId: { type: 'string' }, path: { type: 'string' } }, additionalProperties: false, oneOf: [{ required: ['artifactJobId'] }, { required: ['path'] }] };
    for (const validate of [compileInputSchema(either), compileOnFirstUse(either)]) {
      expect(() => assertValid(validate, { path: 'a.pdf' })).not.toThrow();
      expect(() => assertValid(validate, {})).toThrow('Pass exactly one of "artifactJobId" or "path"; none was given.');
      expect(() => assertValid(validate, { artifactJobId: 'job_1', path: 'a.pdf' })).toThrow('Pass exactly one of "artifactJobId" or "path"; "artifactJobId" and "path" were given.');
      // Other errors are still named by field.
      expect(() => assertValid(validate, { path: 1 })).toThrow(/Field "path" must be string/);
    }
  });
});
