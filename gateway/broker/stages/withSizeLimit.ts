import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { withFields } from '../../core/index.js';
import type { GovernedTool } from '../../registry/index.js';
import { refuseOverLimit } from '../refuseOverLimit.js';
import type { Stage } from '../toolCall.js';

/**
 * Measures the UTF-8 bytes of the JSON of what the upstream returned that goes on — `content` and
 * `structuredContent`, and for a custom tool its `_meta` too (passed to the agent and stored in the
 * audit with the rest) — and refuses anything over the source's limit. The upstream has already
 * done the work: this protects the agent and the audit, it does not roll anything back. The limit
 * is the manifest's `limits.maxResponseBytes`; the size is reported in the outcome (the cache
 * weighs entries by it).
 */
export function withSizeLimit(): Stage {
  return (next) => async (call) => {
    const outcome = await next(call);
    const sizeBytes = Buffer.byteLength(JSON.stringify(passedOn(outcome.raw, call.tool)), 'utf8');
    call.trail.sized(sizeBytes);
    refuseOverLimit(call, sizeBytes);
    return withFields(outcome, { sizeBytes });
  };
}

/** The parts of an answer that reach the agent and the audit: a built-in's `_meta` is dropped, a custom tool's is not. */
function passedOn(raw: CallToolResult, tool: GovernedTool): Pick<CallToolResult, 'content' | 'structuredContent' | '_meta'> {
  return tool.envelope === 'generic'
    ? { content: raw.content, structuredContent: raw.structuredContent, _meta: raw._meta }
    : { content: raw.content, structuredContent: raw.structuredContent };
}
