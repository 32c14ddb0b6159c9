import { GatewayError, MAX_ARGUMENT_DEPTH, nestsDeeperThan } from '../../core/index.js';
import { assertValid } from '../../registry/index.js';
import type { Stage } from '../toolCall.js';

/** Checks the arguments against the tool's input schema (compiled once, at discovery). */
export function withValidation(): Stage {
  return (next) => async (call) => {
    if (nestsDeeperThan(call.arguments, MAX_ARGUMENT_DEPTH)) {
      throw new GatewayError('invalid_input', `The arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep; send a flatter object.`);
    }
    assertValid(call.tool.validate, call.arguments);
    return next(call);
  };
}
