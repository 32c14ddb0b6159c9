import { GatewayError, type Clock, type PermissionRequestRecord } from '../../core/index.js';
import { dangerousToolCall, type PermissionGate } from '../../permissions/index.js';
import type { ResolvedCall, Stage } from '../toolCall.js';

/** How often a waiting call reports progress (when its client asked for progress). */
const WAITING_PROGRESS_EVERY_MS = 15_000;

export interface PermissionDeps {
  /** Decides dangerous actions: asks, waits, records the decision. */
  permissionGate: PermissionGate;
  clock: Clock;
}

/**
 * Nothing dangerous reaches an upstream without an authorization (seed §8). A dangerous call
 * (see permissions/dangerousActions.ts) asks the gate, which may wait for a human; the call's
 * deadline is held meanwhile, so the wait never counts against the tool's timeout. The
 * authorization — allowing or denying — is referenced by the call's Invocation row; one made
 * without asking anyone is written while the action runs, and the answer waits for that write.
 */
export function withPermission(deps: PermissionDeps): Stage {
  return (next) => async (call) => {
    const dangerous = dangerousToolCall(call.tool);
    if (!dangerous) return next(call);
    const authorization = await deps.permissionGate.authorize({
      sessionId: call.session.id,
      session: call.session,
      invocationId: call.invocationId,
      origin: call.origin,
      toolName: call.toolName,
      action: dangerous,
      arguments: call.arguments,
      signal: call.signal,
      deadline: call.deadline,
      ...(call.askClient ? { askClient: call.askClient } : {}),
      onWaiting: (request, waitEnded) => void reportWaiting({ call, request, waitEnded, clock: deps.clock }),
      // The action overlaps the authorization's write; the answer waits for it, as for the intent.
      onDurable: (write) => call.trail.answerAfter(write),
    });
    call.trail.authorized(authorization.id);
    if (!authorization.allowed) {
      throw new GatewayError('permission_denied', `The user denied ${askedFor(dangerous.action, dangerous.resource, call.toolName)}; do not retry this call.`, {
        details: { authorizationId: authorization.id, requestId: authorization.requestId },
      });
    }
    return next(call);
  };
}

/**
 * Tells a client that asked for progress why nothing happens yet, and keeps telling it while the
 * human decides: clients that reset their request timeout on progress then wait as long as the human.
 */
async function reportWaiting(w: { call: ResolvedCall; request: PermissionRequestRecord; waitEnded: AbortSignal; clock: Clock }): Promise<void> {
  if (!w.call.onProgress) return;
  const message = `Waiting for the user to allow ${askedFor(w.request.action, w.request.resource, w.call.toolName)} (request ${w.request.id}).`;
  for (let beat = 0; !w.waitEnded.aborted; beat++) {
    w.call.onProgress({ progress: beat, message }, 'gateway');
    await w.clock.sleep(WAITING_PROGRESS_EVERY_MS, w.waitEnded).catch(() => {});
  }
}

/**
 * What the agent is told was asked about: a tool call by the name the agent called it (the
 * resource is the gateway's internal name, `mcp__custom-<hex>__…`, which the agent never saw);
 * another action (a download from a source) by its action and resource.
 */
function askedFor(action: string, resource: string, toolName: string): string {
  return action === 'tool.call' ? `the call to ${toolName}` : `${action} ${resource}`;
}
