import { describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { sharedSchemaValidator } from '../../../gateway/core/index.js';

const paper = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1 }, year: { type: 'integer' }, doi: { type: 'string', format: 'uri' } },
  required: ['title'],
} as JsonSchemaType;

describe('the shared JSON Schema validator of the SDK clients and servers', () => {
  it('judges data as the SDK default does, with the same error text', () => {
    const ours = sharedSchemaValidator.getValidator(paper);
    const sdk = new AjvJsonSchemaValidator().getValidator(paper);
    for (const input of [{ title: 'x', year: 2020 }, { year: 'then' }, { title: '' }, { title: 'x', doi: 'not a uri' }, 'text']) {
      expect(ours(input)).toEqual(sdk(input));
    }
  });

  it('gives every client the same validator for the same schema', () => {
    expect(sharedSchemaValidator.getValidator(structuredClone(paper))).toBe(sharedSchemaValidator.getValidator(structuredClone(paper)));
  });

  it('keeps the 500 schemas asked for most recently: an older one is compiled anew', () => {
    const first = sharedSchemaValidator.getValidator({ const: 'first' } as JsonSchemaType);
    for (let i = 0; i < 500; i += 1) sharedSchemaValidator.getValidator({ const: i } as JsonSchemaType);
    const again = sharedSchemaValidator.getValidator({ const: 'first' } as JsonSchemaType);
    expect(again).not.toBe(first);
    expect([first('first').valid, again('first').valid, again('other').valid]).toEqual([true, true, false]);
  });

  it('compiles on first validation: a schema that does not compile fails its validations only, saying so', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } } as JsonSchemaType;
    expect(() => new AjvJsonSchemaValidator().getValidator(broken)).toThrow();
    const validate = sharedSchemaValidator.getValidator(broken);
    expect(validate({ a: 1 })).toEqual({ valid: false, data: undefined, errorMessage: expect.stringMatching(/^the schema does not compile \(.*missing.*\); its server must fix it$/) });
    expect(sharedSchemaValidator.getValidator(paper)({ title: 'still judged' }).valid).toBe(true);
  });

  it('refuses, without overflowing the stack, a schema or data nested past 256 levels', () => {
    const nest = (levels: number, leaf: unknown): unknown => Array.from({ length: levels }).reduce((inner) => ({ a: inner }), leaf);
    const deepSchema = nest(100_000, { type: 'object' }) as JsonSchemaType;
    expect(sharedSchemaValidator.getValidator(deepSchema)({})).toEqual({ valid: false, data: undefined, errorMessage: 'the schema nests more than 256 levels deep; its server must fix it' });
    const recursive = sharedSchemaValidator.getValidator({ type: 'object', properties: { a: { $ref: '#' } } } as JsonSchemaType);
    expect(recursive(nest(200, 1)).valid).toBe(false);
    expect(recursive(nest(100_000, {}))).toEqual({ valid: false, data: undefined, errorMessage: 'it nests more than 256 levels deep' });
  });

  it('judges each schema by itself when two servers declare the same $id', () => {
    const strings = sharedSchemaValidator.getValidator({ $id: 'urn:result', type: 'string' } as JsonSchemaType);
    const numbers = sharedSchemaValidator.getValidator({ $id: 'urn:result', type: 'number' } as JsonSchemaType);
    expect([strings('a').valid, strings(1).valid]).toEqual([true, false]);
    expect([numbers(1).valid, numbers('a').valid]).toEqual([true, false]);
  });
});
