import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isErrorCode, sourceLabel, type JsonValue, type McpToolResult, type SourceManifest } from '../../../catalog/index.js';
import { GatewayError, withFields, type Clock } from '../../core/index.js';
import { verifyEnvelope } from '../envelopeValidator.js';
import type { Stage } from '../toolCall.js';

export interface NormalizeDeps {
  clock: Clock;
}

/**
 * Turns the upstream's answer into a normalized McpToolResult (what the audit stores): built-in
 * results are verified envelopes and their error results become GatewayErrors with the source's own
 * classification when it gave a valid one; custom results, error results included, are recorded as
 * untrusted generic data and reach the agent as the server sent them.
 */
export function withNormalize(deps: NormalizeDeps): Stage {
  return (next) => async (call) => {
    const outcome = await next(call);
    const { tool, manifest } = call;
    const raw = outcome.raw;
    // A custom tool's own error result is its answer (passed through as `isError`); a built-in's is classified.
    if (raw.isError && tool.envelope === 'scientific') throw upstreamFailure(raw, sourceLabel(manifest));
    const result =
      tool.envelope === 'scientific'
        ? verifyEnvelope(raw.structuredContent, manifest, tool.toolId)
        : genericResult(raw, manifest, tool.toolId, deps.clock);
    return withFields(outcome, { result });
  };
}

function upstreamFailure(raw: CallToolResult, source: string): GatewayError {
  const wire = (raw.structuredContent as { error?: Record<string, unknown> } | undefined)?.error;
  if (wire && isErrorCode(wire.code) && typeof wire.message === 'string') {
    return new GatewayError(wire.code, `${source}: ${wire.message}`, {
      retryable: wire.retryable === true,
      ...(typeof wire.retryAfterMs === 'number' ? { retryAfterMs: Math.max(0, Math.round(wire.retryAfterMs)) } : {}),
    });
  }
  const text = raw.content
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join(' ')
    .trim();
  return new GatewayError('upstream_error', `${source} reported an error: ${text || '(no message)'}`);
}

function genericResult(raw: CallToolResult, manifest: SourceManifest, toolId: string, clock: Clock): McpToolResult {
  const data = {
    content: raw.content,
    ...(raw.structuredContent ? { structuredContent: raw.structuredContent } : {}),
    ...(raw.isError ? { isError: true } : {}),
    ...(raw._meta ? { _meta: raw._meta } : {}),
  };
  return {
    records: [],
    warnings: raw.isError ? ['The tool reported an error (isError); its answer was passed to the agent as sent.'] : [],
    data: data as unknown as JsonValue,
    attribution: manifest.attribution,
    license: manifest.license,
    retrievedAt: new Date(clock.now()).toISOString(),
    sourceId: manifest.id,
    toolId,
    untrusted: true,
  };
}
