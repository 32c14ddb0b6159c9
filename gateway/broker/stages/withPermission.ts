import { GatewayError, type Clock, type PermissionRequestRecord } from '../../core/index.js';
import { dangerousToolCall, type PermissionGate } from '../../permissions/index.js';
import { deadlineOf, resolvedTool, type Stage, type ToolCall } from '../toolCall.js';

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
      onWaiting: (request) => reportWaiting(call, request),
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

/** Tells a client that asked for progress why nothing happens yet. */
function reportWaiting(call: ToolCall, request: PermissionRequestRecord): void {
  call.onProgress?.({ progress: 0, message: `Waiting for the user to allow ${request.action} ${request.resource} (request ${request.id}).` });
}
