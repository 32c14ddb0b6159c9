import {
  GatewayError, MAX_ARGUMENT_DEPTH, canonicalJson, nestsDeeperThan, sha256Hex, type Clock, type InvocationIntent, type InvocationRecord, type InvocationStore,
  type Logger, type SecretScrubber, withFields,
} from '../../core/index.js';
import type { GatewayMetrics } from '../../metrics/index.js';
import { AuditTrail, callEndingOf } from '../auditTrail.js';
import { scrubbedError, scrubbedOutcome } from '../scrubEnding.js';
import type { AuditedRequest, Handler, ToolOutcome, ToolRequest } from '../toolCall.js';

export interface AuditDeps {
  invocations: InvocationStore;
  clock: Clock;
  log: Logger;
  /** Every configured secret; scrubbed from results and errors before they are stored or returned. */
  secrets: SecretScrubber;
  /** Told how every call ended (what the client is answered), with the same facts the audit row holds. */
  metrics: GatewayMetrics;
}

/** How a call ended: its result as the scrubbed JSON text to store, or its error. */
type Ending = { json: string; error?: undefined } | { error: GatewayError; json?: undefined };

const encoder = new TextEncoder();

/**
 * Outermost stage: every call — success, failure, denial — is audited in two records. The intent
 * (who called what, with which arguments) is written when the call starts and urged to disk when the
 * call acts, so its sync overlaps the action; no result is answered before the intent (and an
 * authorization the permission stage appended without asking anyone) is durable, except a cache hit
 * or a refusal before any upstream attempt, which acted on nothing (unless the store's last write
 * failed: then they wait too, and are refused while the store refuses). The completion (outcome,
 * result blob) is written when the call ends and becomes durable within the store's group-commit
 * window; the answer does not wait for it. It creates the call's audit trail, which the inner
 * stages report to. What the client hears is what the audit holds: the same ending, with every
 * configured secret an upstream echoed scrubbed out; a call whose intent cannot be stored is
 * answered `storage_unavailable`.
 */
export function withAudit(deps: AuditDeps): (next: Handler<AuditedRequest>) => Handler<ToolRequest> {
  const store = new StoreHealth();
  // The intent may wait for company until the call acts: its fsync then overlaps the action.
  const urgeIntent = () => deps.invocations.urge?.();
  return (next) => async (request) => {
    const startedAt = deps.clock.now();
    const audited: AuditedRequest = withFields(request, { trail: new AuditTrail(urgeIntent), canonicalArguments: canonicalArgumentsOf(request.arguments) });
    const argumentsBytes = encoder.encode(audited.canonicalArguments);
    const intent: InvocationIntent = {
      id: request.invocationId,
      sessionId: request.session.id,
      projectId: request.session.projectId,
      toolName: request.toolName.slice(0, 200),
      origin: request.origin,
      argumentsHash: sha256Hex(argumentsBytes),
      startedAt: new Date(startedAt).toISOString(),
    };
    const intentDurable = store.watch(deps.invocations.begin(intent, argumentsBytes));
    let ending: Ending;
    let outcome: ToolOutcome | undefined;
    try {
      const scrubbed = scrubbedOutcome(deps.secrets, await next(audited));
      outcome = scrubbed.outcome;
      ending = { json: scrubbed.json };
    } catch (thrown) {
      const error = scrubbedError(deps.secrets, GatewayError.from(thrown));
      if (error.code === 'internal') deps.log.error({ err: thrown, invocationId: request.invocationId }, 'internal error in a tool call');
      error.attempts ??= audited.trail.facts().attempts;
      ending = { error };
    }
    const answered = await completeOrFail(deps, store, audited, intent, startedAt, intentDurable, ending);
    deps.metrics.callEnded(callEndingOf(audited.trail.facts(), answered.error?.code));
    if (answered.error) throw answered.error;
    return outcome!;
  };
}

/** Whether the store's last write failed, as this stage saw it: a cache hit then waits for its intent. */
class StoreHealth {
  failing = false;

  /** A write's outcome as a value (so a rejection nobody awaited yet is never unhandled), noted. */
  watch(write: Promise<void>): Promise<{ failure?: unknown }> {
    return write.then(
      () => {
        this.failing = false;
        return {};
      },
      (failure: unknown) => {
        this.failing = true;
        return { failure };
      },
    );
  }

  /** The same for writes whose outcome is a value already (AuditTrail.writesDone). */
  watchOutcome(outcome: Promise<{ failure?: unknown }>): Promise<{ failure?: unknown }> {
    return outcome.then((result) => {
      this.failing = result.failure !== undefined;
      return result;
    });
  }
}

/**
 * Waits for the intent (a call that acted on nothing does not), starts the completion and returns
 * what the client is answered: if the intent could not be stored, `storage_unavailable`, and that is
 * what the row then says (once the store takes it). A completion that fails after the answer is the store's to keep
 * trying (docs/storage.md).
 */
async function completeOrFail(
  deps: AuditDeps, store: StoreHealth, call: AuditedRequest, intent: InvocationIntent, startedAt: number, intentDurable: Promise<{ failure?: unknown }>, ending: Ending,
): Promise<Ending> {
  if (!answersWithoutActing(call, ending) || store.failing) {
    // The intent, and an authorization whose write the action overlapped (withPermission).
    deps.invocations.urge?.();
    const failure = (await intentDurable).failure ?? (await store.watchOutcome(call.trail.writesDone())).failure;
    if (failure !== undefined) ending = unstored(deps, call, failure);
  }
  const resultBytes = encoder.encode(ending.error ? JSON.stringify({ error: ending.error.toJSON() }) : ending.json);
  const row = rowOf(deps, call, intent, startedAt, ending, sha256Hex(resultBytes));
  // Not awaited: the store orders it after the intent and makes it durable within its commit window.
  void store.watch(deps.invocations.complete(row, resultBytes)).then(({ failure }) => {
    if (failure !== undefined) deps.log.error({ err: failure, invocationId: call.invocationId }, 'could not record how a tool call ended');
  });
  // Per call, so at `debug` when it succeeded: a gateway at `info` writes nothing for a healthy call.
  (ending.error ? deps.log.info : deps.log.debug).call(
    deps.log,
    { invocationId: call.invocationId, sessionId: call.session.id, tool: intent.toolName, status: ending.error?.code ?? 'ok', durationMs: row.durationMs },
    'tool call',
  );
  return ending;
}

/**
 * A call that ended without acting (AuditTrail.acted): a cache hit, or a refusal before any upstream
 * attempt or native tool start (unknown tool, invalid arguments, denied, queue full). Its answer
 * carries nothing the intent must precede, so it does not wait for the intent's fsync.
 */
function answersWithoutActing(call: AuditedRequest, ending: Ending): boolean {
  return call.trail.facts().cacheHit || (ending.error !== undefined && !call.trail.acted);
}

function unstored(deps: AuditDeps, call: AuditedRequest, failure: unknown): Ending {
  deps.log.error({ err: failure, invocationId: call.invocationId }, 'could not record a tool call; answering storage_unavailable');
  const facts = call.trail.facts();
  return {
    error: new GatewayError('storage_unavailable', 'This call could not be recorded (storage unavailable), so its outcome was not kept. Retry later.', {
      // The tool may have run: only an idempotent one is safe to call again.
      retryable: facts.tool?.idempotent === true,
      attempts: facts.attempts,
      cause: failure,
    }),
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

function rowOf(deps: AuditDeps, call: AuditedRequest, intent: InvocationIntent, startedAt: number, ending: Ending, casHash: string): InvocationRecord {
  const endedAt = deps.clock.now();
  const error = ending.error;
  const facts = call.trail.facts();
  // One literal, not `{ ...intent, ... }`: fields added after a spread cost 13 us here (withFields.ts).
  return {
    id: intent.id,
    sessionId: intent.sessionId,
    projectId: intent.projectId,
    toolName: intent.toolName,
    origin: intent.origin,
    argumentsHash: intent.argumentsHash,
    startedAt: intent.startedAt,
    sourceId: facts.tool?.sourceId ?? facts.native?.sourceId ?? null,
    toolId: facts.tool?.toolId ?? facts.native?.toolId ?? null,
    status: !error ? 'ok' : error.code === 'cancelled' ? 'cancelled' : 'error',
    errorCode: error?.code ?? null,
    retryable: error ? error.retryable : null,
    attempts: error?.attempts ?? facts.attempts,
    cacheHit: facts.cacheHit,
    queueWaitMs: facts.queueWaitMs,
    durationMs: endedAt - startedAt,
    sizeBytes: facts.sizeBytes,
    casHash,
    authorizationId: facts.authorizationId,
    endedAt: new Date(endedAt).toISOString(),
  };
}
