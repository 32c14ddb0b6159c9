import { CallDeadline, GatewayError, MAX_ARGUMENT_DEPTH, nestsDeeperThan, type Clock, type Logger } from '../../core/index.js';
import { assertValid } from '../../registry/index.js';
import { compileNativeTools, type NativeTool } from '../nativeTool.js';
import type { AuditedRequest, Handler } from '../toolCall.js';

export interface NativeToolsDeps {
  /** The gateway's own tools (default none). */
  nativeTools?: readonly NativeTool[];
  clock: Clock;
  log: Logger;
}

/**
 * Between `withAudit` and `withResolve`: a call of a native tool is validated against its published
 * input schema, run, and its result checked against its output schema; every other call goes on to
 * the sources' pipeline. A native tool governs its own permission and limits (see NativeTool).
 */
export function withNativeTools(deps: NativeToolsDeps): (next: Handler<AuditedRequest>) => Handler<AuditedRequest> {
  const tools = compileNativeTools(deps.nativeTools ?? []);
  return (next) => async (request) => {
    const native = tools.get(request.toolName);
    if (!native) return next(request);
    request.trail.native(native.tool.name);
    if (nestsDeeperThan(request.arguments, MAX_ARGUMENT_DEPTH)) {
      throw new GatewayError('invalid_input', `The arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep; send a flatter object.`);
    }
    assertValid(native.validateInput, request.arguments);
    const result = await native.tool.run({ ...request, deadline: new CallDeadline(deps.clock) });
    if (!native.validateOutput(result)) {
      deps.log.error({ tool: native.tool.name, errors: native.validateOutput.errors }, 'a native tool result does not match its output schema');
      throw new GatewayError('internal', `${native.tool.name} produced a result that does not match its output schema; see the gateway log.`);
    }
    return { raw: { content: [] }, native: result };
  };
}
