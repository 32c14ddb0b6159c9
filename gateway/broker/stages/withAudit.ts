import { GatewayError, sha256Hex, type Cas, type Clock, type InvocationStore, type Logger } from '../../core/index.js';
import { canonicalArguments, type Stage, type ToolCall, type ToolOutcome } from '../toolCall.js';

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
    let ending: Ending;
    let outcome: ToolOutcome | undefined;
    try {
      outcome = await next(call);
      if (!outcome.result) throw new Error('the pipeline returned no normalized result');
      ending = { result: outcome.result };
    } catch (thrown) {
      const error = GatewayError.from(thrown);
      if (error.code === 'internal') deps.log.error({ err: thrown, invocationId: call.invocationId }, 'internal error in a tool call');
      error.attempts ??= call.audit.attempts;
      ending = { error };
    }
    await recordOrFail(deps, call, startedAt, ending);
    if (ending.error) throw ending.error;
    return outcome!;
  };
}

/**
 * Records the ending; if that fails, the client is told `storage_unavailable` instead, and that —
 * never the unrecorded outcome — is what the audit holds (if the disk takes even that).
 */
async function recordOrFail(deps: AuditDeps, call: ToolCall, startedAt: number, ending: Ending): Promise<void> {
  try {
    await record(deps, call, startedAt, ending);
  } catch (failure) {
    deps.log.error({ err: failure, invocationId: call.invocationId }, 'could not record a tool call; answering storage_unavailable');
    const unavailable = new GatewayError('storage_unavailable', 'The outcome of this call could not be stored (storage unavailable), so it was not kept.', {
      // The tool may have run: only an idempotent one is safe to call again.
      retryable: call.tool?.idempotent === true,
      attempts: call.audit.attempts,
      cause: failure,
    });
    await record(deps, call, startedAt, { error: unavailable }).catch(() => {});
    throw unavailable;
  }
}

type Ending = { result: unknown; error?: undefined } | { error: GatewayError; result?: undefined };

async function record(deps: AuditDeps, call: ToolCall, startedAt: number, ending: Ending): Promise<void> {
  const encoder = new TextEncoder();
  const resultBytes = encoder.encode(JSON.stringify(ending.error ? { error: ending.error.toJSON() } : ending.result));
  const argumentsBytes = encoder.encode(canonicalArguments(call));
  // The row is the commit point and goes last: a row never claims an outcome whose blobs failed.
  const casHash = sha256Hex(resultBytes);
  const argumentsHash = sha256Hex(argumentsBytes);
  const endedAt = deps.clock.now();
  const error = ending.error;
  const row = () => deps.invocations.record({
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
  await Promise.all([deps.cas.put(resultBytes), deps.cas.put(argumentsBytes)]);
  await row();
  deps.log.info(
    { invocationId: call.invocationId, sessionId: call.session.id, tool: call.toolName, status: error?.code ?? 'ok', durationMs: endedAt - startedAt },
    'tool call',
  );
}
