import { GatewayError, sha256Hex, type Cas, type Clock, type InvocationStore, type Logger } from '../../core/index.js';
import { canonicalArguments, type Stage, type ToolCall } from '../toolCall.js';

export interface AuditDeps {
  invocations: InvocationStore;
  cas: Cas;
  clock: Clock;
  log: Logger;
}

/**
 * Outermost stage: every call — success, failure, denial — writes one Invocation row and stores its
 * arguments and its normalized result (or error) in the CAS before the caller hears back.
 */
export function withAudit(deps: AuditDeps): Stage {
  return (next) => async (call) => {
    const startedAt = deps.clock.now();
    try {
      const outcome = await next(call);
      if (!outcome.result) throw new Error('the pipeline returned no normalized result');
      await record(deps, call, startedAt, { result: outcome.result });
      return outcome;
    } catch (thrown) {
      const error = GatewayError.from(thrown);
      if (error.code === 'internal') deps.log.error({ err: thrown, invocationId: call.invocationId }, 'internal error in a tool call');
      error.attempts ??= call.audit.attempts;
      await record(deps, call, startedAt, { error });
      throw error;
    }
  };
}

type Ending = { result: unknown; error?: undefined } | { error: GatewayError; result?: undefined };

async function record(deps: AuditDeps, call: ToolCall, startedAt: number, ending: Ending): Promise<void> {
  const encoder = new TextEncoder();
  const resultBytes = encoder.encode(JSON.stringify(ending.error ? { error: ending.error.toJSON() } : ending.result));
  const argumentsBytes = encoder.encode(canonicalArguments(call));
  // The addresses are known up front, so the blobs and the row are written at once (one round of
  // fsyncs, shared with concurrent calls) rather than one after the other.
  const casHash = sha256Hex(resultBytes);
  const argumentsHash = sha256Hex(argumentsBytes);
  const endedAt = deps.clock.now();
  const error = ending.error;
  const row = deps.invocations.record({
    id: call.invocationId,
    sessionId: call.session.id,
    projectId: call.session.projectId,
    sourceId: call.tool?.sourceId ?? null,
    toolId: call.tool?.toolId ?? null,
    toolName: call.toolName.slice(0, 200),
    origin: call.origin,
    status: !error ? 'ok' : error.code === 'cancelled' ? 'cancelled' : 'error',
    errorCode: error?.code ?? null,
    retryable: error ? error.retryable : null,
    attempts: error?.attempts ?? call.audit.attempts,
    cacheHit: call.audit.cacheHit,
    queueWaitMs: call.audit.queueWaitMs,
    durationMs: endedAt - startedAt,
    sizeBytes: call.audit.sizeBytes,
    casHash,
    argumentsHash,
    authorizationId: call.audit.authorizationId,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
  });
  await Promise.all([deps.cas.put(resultBytes), deps.cas.put(argumentsBytes), row]);
  deps.log.info(
    { invocationId: call.invocationId, sessionId: call.session.id, tool: call.toolName, status: error?.code ?? 'ok', durationMs: endedAt - startedAt },
    'tool call',
  );
}
