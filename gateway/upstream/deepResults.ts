import { GatewayError, MAX_RESULT_DEPTH, nestsDeeperThan } from '../core/index.js';

/**
 * Refuses an upstream answer nested past MAX_RESULT_DEPTH before any recursive code walks it: the
 * serializer that relays it, the canonical hash of the audit, Ajv. Past a few thousand levels those
 * overflow the stack, and the answer would end as an `internal` error or never reach the client.
 */
export function refuseDeepResult<T>(result: T, upstreamId: string, method: string): T {
  if (nestsDeeperThan(result, MAX_RESULT_DEPTH)) {
    throw new GatewayError('upstream_error', `${upstreamId} returned a ${method} result nested more than ${MAX_RESULT_DEPTH} levels deep; it is refused unread`);
  }
  return result;
}
