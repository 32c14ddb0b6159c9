import { GatewayError } from '../gateway/index.js';

/**
 * A route's query, each parameter given once: one the route does not take, or one given twice, is
 * refused. Ignored, it would look applied while it was not: `?cursor=` for `?before=` answers the
 * first page again (a client following it repeats rows for ever), `?state=` for `?status=` or a
 * second `?sessionId=` the unfiltered list.
 */
export function parseQueryParams<K extends string>(query: Record<string, unknown>, known: readonly K[]): Partial<Record<K, string>> {
  const parsed: Partial<Record<K, string>> = {};
  for (const [key, value] of Object.entries(query)) {
    const field = key.slice(0, 40);
    if (!known.includes(key as K)) {
      throw new GatewayError('invalid_input', `${field}: not a parameter of this route; it takes ${known.join(', ')}.`, { details: { field } });
    }
    if (typeof value !== 'string') throw new GatewayError('invalid_input', `${field} must be given once.`, { details: { field } });
    parsed[key as K] = value;
  }
  return parsed;
}
