import type { ZodType } from 'zod';
import { describeZodError } from '../../catalog/index.js';
import { GatewayError } from './gatewayError.js';

/**
 * Parses input at a boundary (request body, config file) with a zod schema; a failure is
 * `invalid_input` whose message starts with the dotted field path, e.g. `timeoutSeconds: …`.
 */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  throw new GatewayError('invalid_input', `${field || '(body)'}: ${message}`, { details: { field } });
}
