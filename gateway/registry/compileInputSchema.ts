import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { GatewayError, linearRegExp } from '../core/index.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule.default;

const options = { strict: false, allErrors: false, validateFormats: true, code: { regExp: linearRegExp } } as const;
const draft07 = new Ajv(options);
const draft2020 = new Ajv2020(options);
addFormats(draft07);
addFormats(draft2020);

/** Compiles a tool's input schema: draft-07 schemas with Ajv's default validator, everything else with Ajv2020. */
export function compileInputSchema(schema: unknown): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error('the input schema is not a JSON object');
  }
  const declared = String((schema as { $schema?: unknown }).$schema ?? '');
  const ajv = declared.includes('draft-07') || declared.includes('draft-06') ? draft07 : draft2020;
  const { $id: _ignored, ...withoutId } = schema as Record<string, unknown>;
  return ajv.compile(withoutId);
}

/**
 * compileInputSchema, done on the first validation instead of now. Compiling every built-in and
 * native tool's schemas is about a tenth of the CPU `scigate stdio` spends before its first
 * tools/list, for tools most sessions never call. Only for scigate's own schemas (built-in and
 * native tools, which the tests compile): a custom server's schema is compiled at discovery, so
 * one that does not compile is hidden with the reason instead of failing its first call.
 */
export function compileOnFirstUse(schema: unknown): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compileInputSchema(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.schema = schema as ValidateFunction['schema'];
  return validate;
}

/** Validates arguments; throws `invalid_input` naming the first bad field. */
export function assertValid(validate: ValidateFunction, args: unknown): void {
  if (validate(args)) return;
  const alternatives = topLevelAlternatives(validate.schema);
  const error = validate.errors?.[0];
  if (alternatives && error?.instancePath === '' && (error.keyword === 'oneOf' || error.schemaPath.startsWith('#/oneOf/'))) {
    const given = alternatives.filter((name) => typeof args === 'object' && args !== null && name in args);
    const quoted = (names: string[], joiner: string) => names.map((name) => `"${name}"`).join(joiner);
    const got = given.length === 0 ? 'none was given' : `${quoted(given, ' and ')} were given`;
    throw new GatewayError('invalid_input', `Pass exactly one of ${quoted(alternatives, ' or ')}; ${got}.`, {
      details: { field: alternatives.join('|') },
    });
  }
  throw new GatewayError('invalid_input', describeAjvError(error), {
    details: { field: fieldOf(error) },
  });
}

/** The fields of a top-level `oneOf` whose every branch only requires one field (pass exactly one of them). */
function topLevelAlternatives(schema: unknown): string[] | undefined {
  const branches = (schema as { oneOf?: unknown } | undefined)?.oneOf;
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  const names = branches.map((branch: { required?: unknown }) =>
    Object.keys(branch ?? {}).length === 1 && Array.isArray(branch.required) && branch.required.length === 1 ? branch.required[0] : undefined,
  );
  return names.every((name): name is string => typeof name === 'string') ? names : undefined;
}

function fieldOf(error: ErrorObject | undefined): string {
  if (!error) return '';
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return path ? `${path}.${extra}` : extra;
  }
  return path;
}

function describeAjvError(error: ErrorObject | undefined): string {
  if (!error) return 'The arguments do not match the tool input schema.';
  const field = fieldOf(error) || '(arguments)';
  if (error.keyword === 'required') return `Missing required field "${field}".`;
  if (error.keyword === 'additionalProperties') return `Unknown field "${field}"; check the tool's input schema.`;
  return `Field "${field}" ${error.message ?? 'is invalid'}.`;
}
