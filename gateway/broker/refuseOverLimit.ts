import { GatewayError } from '../core/index.js';
import type { ResolvedCall } from './toolCall.js';

/**
 * Throws `response_too_large` when a result of `sizeBytes` (UTF-8 bytes of its JSON) is over the
 * source's `limits.maxResponseBytes` for this call. One rule for a fresh answer (withSizeLimit) and
 * a cached one (withCache): an entry stored under a higher limit is refused the same way.
 */
export function refuseOverLimit(call: ResolvedCall, sizeBytes: number): void {
  const limit = call.manifest.limits.maxResponseBytes;
  if (sizeBytes <= limit) return;
  throw new GatewayError(
    'response_too_large',
    `The result of ${call.toolName} is ${sizeBytes} bytes; the limit for this source is ${limit}. Ask for fewer results.`,
    { details: { sizeBytes, limitBytes: limit } },
  );
}
