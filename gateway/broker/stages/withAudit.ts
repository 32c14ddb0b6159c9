import {
  GatewayError, MAX_ARGUMENT_DEPTH, canonicalJson, nestsDeeperThan, sha256Hex, type Cas, type Clock, type InvocationStore, type Logger,
  type SecretScrubber,
} from '../../core/index.js';
import { AuditTrail } from '../auditTrail.js';
import type { AuditedRequest, Handler, ToolOutcome, ToolRequest } from '../toolCall.js';

export interface AuditDeps {
  invocations: InvocationStore;
  cas: Cas;
  clock: Clock;
  log: Logger;
  /** Every configured secret; scrubbed from results and errors before they are stored or returned. */
  secrets: SecretScrubber;
}

/**
 * Outermost stage: every call — success, failure, denial — writes one Invocation row and stores its
 * arguments and its normalized result (or error) in the CAS before the caller hears back. It creates
 * the call's audit trail, which the inner stages report to. Being outermost, it is also the one
 * place where a secret an upstream echoed (in its result, or in an error message built from its
 * text) is scrubbed: what is stored and what the caller gets are the same scrubbed ending.
 */
export function withAudit(deps: AuditDeps): (next: Handler<AuditedRequest>) => Handler<ToolRequest> {
  return (next) => async (request) => {
    const startedAt = deps.clock.now();
    const audited: AuditedRequest = { ...request, trail: new AuditTrail(), canonicalArguments: canonicalArgumentsOf(request.arguments) };
    try {
      const outcome = scrubbedOutcome(deps.secrets, await next(audited));
      await record(deps, audited, startedAt, { result: outcome.result });
      return outcome;
    } catch (thrown) {
      const error = scrubbedError(deps.secrets, GatewayError.from(thrown));
      if (error.code === 'internal') deps.log.error({ err: thrown, invocationId: request.invocationId }, 'internal error in a tool call');
      error.attempts ??= audited.trail.facts().attempts;
      await record(deps, audited, startedAt, { error });
      throw error;
    }
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

/** The outcome with secrets replaced; the raw answer is rescanned only when the result held one (custom results copy it). */
function scrubbedOutcome(secrets: SecretScrubber, outcome: ToolOutcome): ToolOutcome {
  if (!outcome.result) throw new Error('the pipeline returned no normalized result');
  const text = JSON.stringify(outcome.result);
  const scrubbed = secrets.scrub(text);
  if (scrubbed === text) return outcome;
  return { ...outcome, result: JSON.parse(scrubbed) as ToolOutcome['result'], raw: secrets.scrubValue(outcome.raw) };
}

/** The same error with its message and details scrubbed (messages quote upstream text). */
function scrubbedError(secrets: SecretScrubber, error: GatewayError): GatewayError {
  const message = secrets.scrub(error.message);
  const details = error.details === undefined ? undefined : secrets.scrubValue(error.details);
  if (message === error.message && details === error.details) return error;
  const { code, retryable, retryAfterMs, attempts } = error;
  return new GatewayError(code, message, {
    retryable, cause: error.cause, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), ...(attempts !== undefined ? { attempts } : {}), ...(details ? { details } : {}),
  });
}

type Ending = { result: unknown; error?: undefined } | { error: GatewayError; result?: undefined };

async function record(deps: AuditDeps, call: AuditedRequest, startedAt: number, ending: Ending): Promise<void> {
  const encoder = new TextEncoder();
  const resultBytes = encoder.encode(JSON.stringify(ending.error ? { error: ending.error.toJSON() } : ending.result));
  const argumentsBytes = encoder.encode(call.canonicalArguments);
  // The addresses are known up front, so the blobs and the row are written at once (one round of
  // fsyncs, shared with concurrent calls) rather than one after the other.
  const casHash = sha256Hex(resultBytes);
  const argumentsHash = sha256Hex(argumentsBytes);
  const endedAt = deps.clock.now();
  const error = ending.error;
  const facts = call.trail.facts();
  const row = deps.invocations.record({
    id: call.invocationId,
    sessionId: call.session.id,
    projectId: call.session.projectId,
    sourceId: facts.tool?.sourceId ?? null,
    toolId: facts.tool?.toolId ?? null,
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
  await Promise.all([deps.cas.put(resultBytes), deps.cas.put(argumentsBytes), row]);
  deps.log.info(
    { invocationId: call.invocationId, sessionId: call.session.id, tool: call.toolName, status: error?.code ?? 'ok', durationMs: endedAt - startedAt },
    'tool call',
  );
}
