import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isErrorCode, type McpToolResult } from '../../catalog/index.js';
import { ProviderError, boundProviderText } from './providerError.js';

/** A successful source result: structured content plus the same JSON as text for text-only clients. */
export function okResult(result: McpToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
}

/** A failed source call, in the structured error shape the gateway reads back. */
export function errorResult(error: unknown): CallToolResult {
  const provider =
    error instanceof ProviderError
      ? error
      : (codedError(error) ?? new ProviderError('upstream_error', `The source failed unexpectedly: ${boundProviderText(String(error))}`));
  const wire = {
    code: provider.code,
    message: provider.message,
    retryable: provider.retryable,
    ...(provider.retryAfterMs !== undefined ? { retryAfterMs: provider.retryAfterMs } : {}),
  };
  return {
    isError: true,
    content: [{ type: 'text', text: `${wire.code}: ${wire.message}` }],
    structuredContent: { error: wire },
  };
}

/**
 * An error that already carries a wire code keeps it: the gateway's shared request pacing
 * (`SourceDeps.pacer`, held in Redis with several replicas) refuses with `storage_unavailable`,
 * retryable, when Redis does not answer; the source did not fail.
 */
function codedError(error: unknown): ProviderError | undefined {
  const coded = error as { code?: unknown; retryable?: unknown; message?: unknown } | null;
  if (!(error instanceof Error) || !isErrorCode(coded?.code) || typeof coded?.retryable !== 'boolean') return undefined;
  return new ProviderError(coded.code, boundProviderText(error.message), { retryable: coded.retryable });
}

/** Runs a tool body, turning any failure into an error result (a source never throws at its client). */
export async function runTool(body: () => Promise<McpToolResult>): Promise<CallToolResult> {
  try {
    return okResult(await body());
  } catch (error) {
    return errorResult(error);
  }
}
