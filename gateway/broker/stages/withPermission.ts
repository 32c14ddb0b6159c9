import { GatewayError, type Clock, type PermissionRequestRecord } from '../../core/index.js';
import { dangerousToolCall, type PermissionGate } from '../../permissions/index.js';
import { deadlineOf, resolvedTool, type Stage, type ToolCall } from '../toolCall.js';

/** How often a waiting call reports progress (when its client asked for progress). */
const WAITING_PROGRESS_EVERY_MS = 15_000;

export interface PermissionOptions {
  /** Decides dangerous actions. Without one, every dangerous action is refused (fail closed). */
  gate: PermissionGate | undefined;
  clock: Clock;
}

/**
 * Nothing dangerous reaches an upstream without an authorization (seed §8). A dangerous call
 * (see permissions/dangerousActions.ts) asks the gate, which may wait for a human; the call's
 * deadline is held meanwhile, so the wait never counts against the tool's timeout. The
 * authorization — allowing or denying — is referenced by the call's Invocation row.
 */
export function withPermission(options: PermissionOptions): Stage {
  return (next) => async (call) => {
    const dangerous = dangerousToolCall(resolvedTool(call));
    if (!dangerous) return next(call);
    if (!options.gate) {
      throw new GatewayError('permission_denied', `${call.toolName} needs a permission decision, and this gateway has no permission service.`);
    }
    const authorization = await options.gate.authorize({
      sessionId: call.session.id,
      invocationId: call.invocationId,
      origin: call.origin,
      toolName: call.toolName,
      action: dangerous,
      arguments: call.arguments,
      signal: call.signal,
      deadline: deadlineOf(call, options.clock),
      ...(call.askClient ? { askClient: call.askClient } : {}),
      onWaiting: (request, waitEnded) => void reportWaiting({ call, request, waitEnded, clock: options.clock }),
    });
    call.audit.authorizationId = authorization.id;
    if (!authorization.allowed) {
      throw new GatewayError('permission_denied', `The user denied ${dangerous.action} ${dangerous.resource}; do not retry this call.`, {
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
async function reportWaiting(w: { call: ToolCall; request: PermissionRequestRecord; waitEnded: AbortSignal; clock: Clock }): Promise<void> {
  if (!w.call.onProgress) return;
  const message = `Waiting for the user to allow ${w.request.action} ${w.request.resource} (request ${w.request.id}).`;
  for (let beat = 0; !w.waitEnded.aborted; beat++) {
    w.call.onProgress({ progress: beat, message });
    await w.clock.sleep(WAITING_PROGRESS_EVERY_MS, w.waitEnded).catch(() => {});
  }
}
