import { createRequire } from 'node:module';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Ajv, ValidateFunction } from 'ajv';
import { MAX_RESULT_DEPTH, nestsDeeperThan } from './jsonDepth.js';
import { linearRegExp } from './linearRegExp.js';

// gateway/core is loaded by every command, `scigate source` and the stdio front among them, which
// never validate a schema themselves: Ajv (CommonJS) is required on the first compile instead.
const require = createRequire(import.meta.url);

/** The options of the SDK's own default validator, so every result is judged as it was before; patterns in linear time. */
const OPTIONS = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: linearRegExp } } as const;
/** Distinct schemas kept compiled; an evicted one is compiled again when next used. */
const MAX_SCHEMAS = 500;

let ajv: Ajv | undefined;
function compiler(): Ajv {
  if (!ajv) {
    ajv = new (require('ajv') as typeof import('ajv')).Ajv(OPTIONS);
    (require('ajv-formats') as typeof import('ajv-formats')).default(ajv);
  }
  return ajv;
}

interface CachedValidator {
  validate: JsonSchemaValidator<unknown>;
  /** Drops the compiled schema from Ajv's own cache, which holds every schema it compiled until told. */
  release(): void;
}

/** By schema text, least recently asked for first (a Map keeps insertion order). */
const validators = new Map<string, CachedValidator>();

/**
 * The JSON Schema validator every SDK client and server of the gateway is built with (the SDK's
 * `jsonSchemaValidator` option). The SDK's default builds an Ajv instance per client and compiles
 * every tool's outputSchema on each tools/list, though most tools are never called: 7–20 ms per
 * schema, paid again on every reconnect. Here one Ajv instance compiles each distinct schema once,
 * on its first validation.
 *
 * `$id` is dropped before compiling: in a shared instance a schema's `$id` is registered for all, so
 * two servers declaring the same `$id` would collide, or one would be judged by the other's schema.
 * A schema that does not compile fails the validations of that tool only, saying so.
 */
export const sharedSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // Keyed by its text, which a schema nested past the stack has none of: it judges nothing.
    if (nestsDeeperThan(schema, MAX_RESULT_DEPTH)) return tooDeep(`the schema nests more than ${MAX_RESULT_DEPTH} levels deep; its server must fix it`);
    const key = JSON.stringify(schema);
    const cached = validators.get(key) ?? compileOnFirstValidation(schema);
    validators.delete(key);
    validators.set(key, cached);
    if (validators.size > MAX_SCHEMAS) {
      const [oldest, evicted] = validators.entries().next().value!;
      validators.delete(oldest);
      evicted.release();
    }
    return cached.validate as JsonSchemaValidator<T>;
  },
};

function compileOnFirstValidation(schema: JsonSchemaType): CachedValidator {
  const { $id: _shared, ...anonymous } = schema as Record<string, unknown>;
  let compiled: ValidateFunction | undefined;
  let failure: string | undefined;
  const validate: JsonSchemaValidator<unknown> = (input) => {
    if (!compiled && failure === undefined) {
      try {
        compiled = compiler().compile(anonymous);
      } catch (error) {
        failure = `the schema does not compile (${error instanceof Error ? error.message : String(error)}); its server must fix it`;
      }
    }
    if (!compiled) return { valid: false, data: undefined, errorMessage: failure! };
    // Ajv's validators recurse with the data: a hostile answer must not overflow the stack.
    if (nestsDeeperThan(input, MAX_RESULT_DEPTH)) return { valid: false, data: undefined, errorMessage: `it nests more than ${MAX_RESULT_DEPTH} levels deep` };
    if (compiled(input)) return { valid: true, data: input, errorMessage: undefined };
    return { valid: false, data: undefined, errorMessage: compiler().errorsText(compiled.errors) };
  };
  return { validate, release: () => void (compiled && compiler().removeSchema(anonymous)) };
}

/** A validator that refuses everything, saying why. */
function tooDeep<T>(errorMessage: string): JsonSchemaValidator<T> {
  return () => ({ valid: false, data: undefined, errorMessage });
}
