import type { ZodType } from 'zod';
import { describeZodError } from '../../catalog/index.js';
import { GatewayError } from './gatewayError.js';
import { isPlainObject } from './plainObject.js';

/**
 * Parses input at a boundary (request body, config file) with a zod schema; a failure is
 * `invalid_input` whose message starts with the dotted field path, e.g. `timeoutSeconds: …`. Input
 * that is not a JSON object at all is told so, not given the first field's complaint.
 */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  if (!field && !isPlainObject(input)) {
    throw new GatewayError('invalid_input', `Expected a JSON object, got ${kindOf(input)}.`, { details: { field } });
  }
  throw new GatewayError('invalid_input', field ? `${field}: ${message}` : message, { details: { field } });
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
