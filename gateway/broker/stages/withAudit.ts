import {
  GatewayError, MAX_ARGUMENT_DEPTH, canonicalJson, nestsDeeperThan, sha256Hex, type Cas, type Clock, type InvocationStore, type Logger, type SecretScrubber,
} from '../../core/index.js';
import type { GatewayMetrics } from '../../metrics/index.js';
import { AuditTrail, callEndingOf } from '../auditTrail.js';
import { scrubbedError, scrubbedOutcome } from '../scrubEnding.js';
import type { AuditedRequest, Handler, ToolOutcome, ToolRequest } from '../toolCall.js';

export interface AuditDeps {
  invocations: InvocationStore;
  cas: Cas;
  clock: Clock;
  log: Logger;
  /** Every configured secret; scrubbed from results and errors before they are stored or returned. */
  secrets: SecretScrubber;
  /** Told how every call ended (what the client is answered), with the same facts the audit row holds. */
  metrics: GatewayMetrics;
}

type Ending = { result: unknown; error?: undefined } | { error: GatewayError; result?: undefined };

/**
 * Outermost stage: every call — success, failure, denial — writes one Invocation row and stores its
 * arguments and its normalized result (or error) in the CAS before the caller hears back. It creates
 * the call's audit trail, which the inner stages report to. What the client hears is what the audit
 * holds: the same ending, with every configured secret an upstream echoed scrubbed out, and an
 * outcome that cannot be stored is answered `storage_unavailable`.
 */
export function withAudit(deps: AuditDeps): (next: Handler<AuditedRequest>) => Handler<ToolRequest> {
  return (next) => async (request) => {
    const startedAt = deps.clock.now();
    const audited: AuditedRequest = { ...request, trail: new AuditTrail(), canonicalArguments: canonicalArgumentsOf(request.arguments) };
    let ending: Ending;
    let outcome: ToolOutcome | undefined;
    try {
      outcome = scrubbedOutcome(deps.secrets, await next(audited));
      ending = { result: outcome.result ?? outcome.native };
    } catch (thrown) {
      const error = scrubbedError(deps.secrets, GatewayError.from(thrown));
      if (error.code === 'internal') deps.log.error({ err: thrown, invocationId: request.invocationId }, 'internal error in a tool call');
      error.attempts ??= audited.trail.facts().attempts;
      ending = { error };
    }
    const answered = await recordOrFail(deps, audited, startedAt, ending);
    deps.metrics.callEnded(callEndingOf(audited.trail.facts(), answered.error?.code));
    if (answered.error) throw answered.error;
    return outcome!;
  };
}

/**
 * Arguments nested past MAX_ARGUMENT_DEPTH, which validation refuses, get a marker instead, so the
 * recursive serializer never sees them.
 */
function canonicalArgumentsOf(args: Record<string, unknown>): string {
  return nestsDeeperThan(args, MAX_ARGUMENT_DEPTH)
    ? JSON.stringify({ refused: `nested more than ${MAX_ARGUMENT_DEPTH} levels deep` })
    : canonicalJson(args);
}

/**
 * Records the ending and returns what the client is answered: if recording fails, `storage_unavailable`,
 * and that — never the unrecorded outcome — is what the audit holds (if the disk takes even that).
 */
async function recordOrFail(deps: AuditDeps, call: AuditedRequest, startedAt: number, ending: Ending): Promise<Ending> {
  try {
    await record(deps, call, startedAt, ending);
    return ending;
  } catch (failure) {
    deps.log.error({ err: failure, invocationId: call.invocationId }, 'could not record a tool call; answering storage_unavailable');
    const facts = call.trail.facts();
    const unavailable = new GatewayError('storage_unavailable', 'The outcome of this call could not be stored (storage unavailable), so it was not kept.', {
      // The tool may have run: only an idempotent one is safe to call again.
      retryable: facts.tool?.idempotent === true,
      attempts: facts.attempts,
      cause: failure,
    });
    await record(deps, call, startedAt, { error: unavailable }).catch(() => {});
    return { error: unavailable };
  }
}

async function record(deps: AuditDeps, call: AuditedRequest, startedAt: number, ending: Ending): Promise<void> {
  const encoder = new TextEncoder();
  const resultBytes = encoder.encode(JSON.stringify(ending.error ? { error: ending.error.toJSON() } : ending.result));
  const argumentsBytes = encoder.encode(call.canonicalArguments);
  const casHash = sha256Hex(resultBytes);
  const argumentsHash = sha256Hex(argumentsBytes);
  const endedAt = deps.clock.now();
  const error = ending.error;
  const facts = call.trail.facts();
  // The row is the commit point and goes last: a row never claims an outcome whose blobs failed.
  await Promise.all([deps.cas.put(resultBytes), deps.cas.put(argumentsBytes)]);
  await deps.invocations.record({
    id: call.invocationId,
    sessionId: call.session.id,
    projectId: call.session.projectId,
    sourceId: facts.tool?.sourceId ?? facts.native?.sourceId ?? null,
    toolId: facts.tool?.toolId ?? facts.native?.toolId ?? null,
    toolName: call.toolName.slice(0, 200),
    origin: call.origin,
    status: !error ? 'ok' : error.code === 'cancelled' ? 'cancelled' : 'error',
    errorCode: error?.code ?? null,
    retryable: error ? error.retryable : null,
    attempts: error?.attempts ?? facts.attempts,
    cacheHit: facts.cacheHit,
    queueWaitMs: facts.queueWaitMs,
    durationMs: endedAt - startedAt,
    sizeBytes: facts.sizeBytes,
    casHash,
    argumentsHash,
    authorizationId: facts.authorizationId,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
  });
  // Per call, so at `debug` when it succeeded: a gateway at `info` writes nothing for a healthy call.
  (error ? deps.log.info : deps.log.debug).call(
    deps.log,
    { invocationId: call.invocationId, sessionId: call.session.id, tool: call.toolName, status: error?.code ?? 'ok', durationMs: endedAt - startedAt },
    'tool call',
  );
}
