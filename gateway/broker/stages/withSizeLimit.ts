import { GatewayError } from '../../core/index.js';
import type { Stage } from '../toolCall.js';

/**
 * Measures the UTF-8 bytes of the JSON of `{content, structuredContent}` the upstream returned and
 * refuses anything over the source's limit. The upstream has already done the work: this protects
 * the agent and the audit, it does not roll anything back. The limit is the manifest's
 * `limits.maxResponseBytes`; the size is reported in the outcome (the cache weighs entries by it).
 */
export function withSizeLimit(): Stage {
  return (next) => async (call) => {
    const outcome = await next(call);
    const sizeBytes = Buffer.byteLength(
      JSON.stringify({ content: outcome.raw.content, structuredContent: outcome.raw.structuredContent }),
      'utf8',
    );
    call.trail.sized(sizeBytes);
    const limit = call.manifest.limits.maxResponseBytes;
    if (sizeBytes > limit) {
      throw new GatewayError(
        'response_too_large',
        `The result of ${call.toolName} is ${sizeBytes} bytes; the limit for this source is ${limit}. Ask for fewer results.`,
        { details: { sizeBytes, limitBytes: limit } },
      );
    }
    return { ...outcome, sizeBytes };
  };
}
