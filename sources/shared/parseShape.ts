import type { z } from 'zod';
import { ProviderError } from './providerError.js';
import { describeZodError } from '../../catalog/index.js';

/**
 * Checks parsed provider JSON against the shape a source relies on. Unknown keys are dropped, not
 * rejected (providers add fields often, so `.strict()` would break on every release); a missing or
 * mistyped field the source needs is an `upstream_error` that a retry will not fix.
 */
export function parseShape<T extends z.ZodType>(schema: T, value: unknown, provider: string, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  const at = field ? ` at ${field}` : '';
  throw new ProviderError('upstream_error', `${provider} sent an unexpected ${what}${at}: ${message}`);
}
