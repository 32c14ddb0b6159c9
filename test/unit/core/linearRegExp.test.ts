import { describe, expect, it } from 'vitest';
import { sharedSchemaValidator } from '../../../gateway/core/index.js';
import { compileInputSchema } from '../../../gateway/registry/compileInputSchema.js';

// A server-written pattern that backtracks exponentially: against `a` × n and one other character,
// a backtracking engine tries about 2^n ways (n = 40: hours, with the event loop held throughout).
// n is kept at 24 here (a fraction of a second even for a backtracking engine), so a regression
// cannot hang the suite: the last test is the one that tells the engines apart.
const NESTED = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
const hostile = { s: `${'a'.repeat(24)}!` };

describe('JSON Schema patterns are matched in linear time', () => {
  it('in the input schemas of tools: a catastrophic pattern gives the usual pattern error', () => {
    const validate = compileInputSchema(NESTED);
    expect(validate(hostile)).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'pattern', instancePath: '/s' });
    expect(validate({ s: 'a'.repeat(40) })).toBe(true);
  });

  it('in the output schemas every result is checked against', () => {
    const validate = sharedSchemaValidator.getValidator({ ...NESTED, required: ['s'] });
    expect(validate(hostile)).toMatchObject({ valid: false, errorMessage: expect.stringContaining('must match pattern') });
    expect(validate({ s: 'aaa' })).toMatchObject({ valid: true });
  });

  it('keeps JavaScript pattern syntax (\\d, \\u escapes, named groups, unicode classes) and case', () => {
    const validate = compileInputSchema({ type: 'string', pattern: '^(?<id>PMC\\d+)\\u002dv\\p{L}$' });
    expect(validate('PMC123-vé')).toBe(true);
    expect(validate('pmc123-vé')).toBe(false);
  });

  it('a pattern that needs backtracking (a backreference, lookahead) does not compile, saying why, in both', () => {
    expect(() => compileInputSchema({ type: 'string', pattern: '^(a)\\1$' })).toThrow(/needs a regular-expression feature scigate does not evaluate/);
    const validate = sharedSchemaValidator.getValidator({ type: 'string', pattern: '^(?=a)a$' });
    expect(validate('a')).toMatchObject({ valid: false, errorMessage: expect.stringMatching(/does not compile .*needs a regular-expression feature/) });
  });
});
